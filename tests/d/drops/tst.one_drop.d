/*
 * ASSERTION: a single dropped record is reported in the singular,
 * "1 drop on CPU 0"; with -x droptags the line starts with
 * [DTRACEDROP_PRINCIPAL].
 * @@options: -x droptags -x bufsize=64
 */
#pragma D option quiet

BEGIN
{
	trace("a string that is far longer than the whole buffer");
}

BEGIN
{
	printf("kept\n");
	exit(0);
}
