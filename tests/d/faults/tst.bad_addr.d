/*
 * ASSERTION: a load from an unmapped kernel address is an invalid
 * address fault naming that address; 8-byte loads too.
 */
#pragma D option quiet

BEGIN
{
	x = *(long *)0xdead0000;
}

BEGIN
{
	printf("continued\n");
	exit(0);
}
