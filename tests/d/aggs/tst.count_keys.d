/*
 * ASSERTION: count() counts firings per key; entries print as the key in
 * "  %-50s" and the count in " %16lld", sorted by count ascending.
 */
#pragma D option quiet

BEGIN
{
	@c["three"] = count();
	@c["one"] = count();
	@c["three"] = count();
	@c["two"] = count();
	@c["three"] = count();
	@c["two"] = count();
	exit(0);
}
