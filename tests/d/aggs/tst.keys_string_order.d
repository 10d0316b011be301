/*
 * ASSERTION: string keys compare bytewise: uppercase before lowercase, a
 * prefix before its extensions, the empty string first.  (libdtrace
 * prints a key by its record's bytes: the empty string, all NULs, comes
 * out as a dump of its strsize bytes.)
 */
#pragma D option quiet

BEGIN
{
	@["b"] = count();
	@["a"] = count();
	@["aa"] = count();
	@["B"] = count();
	@[""] = count();
	@["a b"] = count();
	@["~"] = count();
	exit(0);
}
