/*
 * ASSERTION: associative arrays indexed by integers and by strings;
 * an unset element reads 0.
 */
#pragma D option quiet

BEGIN
{
	a[1] = 10;
	a[2] = 20;
	a[1000000] = 30;
	b["x"] = 1;
	b["yy"] = 2;
	printf("%d %d %d %d\n", a[1], a[2], a[1000000], a[3]);
	printf("%d %d %d\n", b["x"], b["yy"], b["zzz"]);
	a[1] += 5;
	b["x"]++;
	printf("%d %d\n", a[1], b["x"]);
	exit(0);
}
