/*
 * ASSERTION: a printa() format without a %@ conversion prints no value:
 * the format once per entry with its keys, and plain text once per entry.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = sum(5);
	@a["y"] = sum(3);
	printa("key %s\n", @a);
	printa("entry\n", @a);
	exit(0);
}
