/*
 * ASSERTION: a string key longer than 50 characters is printed whole:
 * "  %-50s" pads but does not truncate.
 */
#pragma D option quiet

BEGIN
{
	@["abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz0123456789"] = count();
	@["short"] = count();
	@["short"] = count();
	exit(0);
}
