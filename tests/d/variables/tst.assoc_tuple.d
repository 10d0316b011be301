/*
 * ASSERTION: associative arrays with tuple keys mixing integers and
 * strings: each distinct tuple is its own element.
 */
#pragma D option quiet

BEGIN
{
	t[1, "a"] = 1;
	t[1, "b"] = 2;
	t[2, "a"] = 3;
	u["x", "y", 3] = 5;
	printf("%d %d %d %d\n", t[1, "a"], t[1, "b"], t[2, "a"], u["x", "y", 3]);
	printf("%d %d\n", t[2, "b"], u["x", "y", 4]);
	exit(0);
}
