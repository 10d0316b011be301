/*
 * ASSERTION: associative arrays of string values, keyed by computed
 * strings; keys compare by content, not by address;
 * string values are copied (changing the source later does not change
 * the element).
 */
#pragma D option quiet

BEGIN
{
	names[strjoin("ke", "y")] = "value";
	k = "key";
	printf("%s\n", names[k]);
	k = "changed";
	printf("%s %s\n", names["key"], k);
	exit(0);
}
