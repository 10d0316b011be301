/*
 * ASSERTION: %% in a printa() format prints a percent sign and consumes
 * neither a key nor a value.
 */
#pragma D option quiet

BEGIN
{
	@a["cpu"] = sum(75);
	printa("%s %@d%%\n", @a);
	exit(0);
}
