/*
 * ASSERTION: string keys compare bytewise: uppercase before lowercase, a
 * prefix before its extensions, the empty string first.
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
