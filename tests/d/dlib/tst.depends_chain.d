/*
 * ASSERTION: -x libdir names the library's directory, and its files are
 * compiled each after the files its "#pragma D depends_on library" lines
 * name, whatever their names' order: a_top.d needs m_middle.d, which needs
 * z_bottom.d.  The program may name a file of that library too.
 * @@options: --file tests/d/dlib/chain/a_top.d --file tests/d/dlib/chain/m_middle.d --file tests/d/dlib/chain/z_bottom.d -q -x libdir=tests/d/dlib/chain
 */
#pragma D depends_on library a_top.d

BEGIN
{
	printf("%d %d %d\n", chain_bottom, chain_middle, chain_top);
	exit(0);
}
