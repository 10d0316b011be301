/*
 * ASSERTION: without quiet, printa() output follows the probe's record
 * prefix: the prefix, printa's newline and entries, then the newline that
 * ends the record.
 */
BEGIN
{
	@a["k"] = sum(3);
	printa(@a);
}

BEGIN
{
	printa("%s=%@d", @a);
}

BEGIN
{
	exit(0);
}
