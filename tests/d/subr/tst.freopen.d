/*
 * ASSERTION: freopen("") sends the output to standard output (where it
 * already is), and ftruncate() of standard output changes nothing in what
 * has been printed: both act in the consumer, in order with the output, and
 * a clause with only ftruncate() still reaches it.
 */
/* @@options: -q -w */

BEGIN
{
	printf("one\n");
	ftruncate();
	printf("two\n");
	freopen("");
	printf("three\n");
}

BEGIN
{
	ftruncate();
}

BEGIN
{
	exit(0);
}
