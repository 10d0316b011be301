/*
 * ASSERTION: in quiet mode an empty clause (the default action) prints
 * nothing at all; only the closing newline remains.
 */
#pragma D option quiet

BEGIN
{
}

BEGIN
{
	exit(0);
}

END
{
}
