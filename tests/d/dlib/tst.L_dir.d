/*
 * ASSERTION: -L adds a directory to the D library's: its files are
 * compiled (in depends_on order) after the image's own, which stay (NULL
 * is still defined).  Naming the image's library directory again with -L
 * declares nothing twice: a file name already given is left out.
 * @@options: --file tests/d/dlib/chain/a_top.d --file tests/d/dlib/chain/m_middle.d --file tests/d/dlib/chain/z_bottom.d -q -L tests/d/dlib/chain -L /usr/lib/dtrace
 */
BEGIN
{
	printf("%d %d\n", chain_top, NULL == 0);
	exit(0);
}
