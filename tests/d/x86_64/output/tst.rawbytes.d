/*
 * ASSERTION: with the rawbytes option trace() dumps every record's bytes,
 * as many as its type has (a short: 2, a string: strsize), and string
 * aggregation keys are dumped too; integer keys still print as numbers.
 */
#pragma D option quiet
#pragma D option rawbytes
#pragma D option strsize=8

BEGIN
{
	trace((short)258);
	trace("ab");
	trace(-1);
	@s["k"] = count();
	@i[3] = count();
	exit(0);
}
