/*
 * ASSERTION: in a printa() format, %d prints integer keys of every size
 * with their sign ((char)-1 prints -1 here, unlike the default output),
 * and %u prints them unsigned at their own width.
 */
#pragma D option quiet

BEGIN
{
	@a[(char)-1, (short)-2, (int)-3, (long long)-4] = count();
	printa("%d %d %d %d %@d\n", @a);
	@b[(unsigned char)250, (unsigned short)65000, (unsigned int)4000000000] = count();
	printa("%u %u %u %@d\n", @b);
	exit(0);
}
