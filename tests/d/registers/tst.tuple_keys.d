/*
 * ASSERTION: an associative array with eight keys, and keys that are
 * themselves elements of arrays with several keys, compile (each plain key
 * is evaluated as it is pushed instead of all being held in registers) and
 * store and find the same elements.
 */
#pragma D option quiet

BEGIN
{
	a[1, 2, 3, 4, 5, 6, 7, 8] = 36;
	b[1, 2, 3, 4] = 10;
	c[1, 2, 3, b[1, 2, 3, 4]] = 20;
	d[1, 2, 3, 4, 5, 6, c[1, 2, 3, b[1, 2, 3, 4]]] = 30;
	printf("%d\n", a[1, 2, 3, 4, 5, 6, 7, 8]);
	printf("%d\n", c[1, 2, 3, 10]);
	printf("%d\n", d[1, 2, 3, 4, 5, 6, 20]);
	printf("%d\n", d[1, 2, 3, 4, 5, 6, c[1, 2, 3, b[1, 2, 3, 4]]]);
	printf("%s\n", strjoin("a", strjoin("b", strjoin("c", strjoin("d",
	    strjoin("e", strjoin("f", strjoin("g", strjoin("h", "i")))))))));
	exit(0);
}
