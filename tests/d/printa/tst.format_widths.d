/*
 * ASSERTION: printa() conversions honour widths, left alignment and
 * precision for key members and values alike.
 */
#pragma D option quiet

BEGIN
{
	@a["alpha", 7] = sum(123);
	@a["be", -3] = sum(45);
	printa("[%-8s][%5d][%@8d]\n", @a);
	printa("[%8s][%-5d][%@-8d]\n", @a);
	printa("[%.2s][%05d][%@08d]\n", @a);
	exit(0);
}
