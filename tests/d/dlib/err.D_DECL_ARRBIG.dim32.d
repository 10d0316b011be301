/*
 * ASSERTION: an array dimension must fit 32 bits.
 */
char a[0x100000000];

BEGIN
{
	exit(0);
}
