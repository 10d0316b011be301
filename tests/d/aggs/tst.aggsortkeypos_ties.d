/*
 * ASSERTION: without aggsortkey, aggsortkeypos=1 only changes how value
 * ties are broken: by the second key member first, then the first.
 */
#pragma D option quiet
#pragma D option aggsortkeypos=1

BEGIN
{
	@["a", 2] = sum(5);
	@["b", 1] = sum(5);
	@["c", 3] = sum(1);
	@["a", 1] = sum(5);
	exit(0);
}
