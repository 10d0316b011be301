/*
 * ASSERTION: at exit libdtrace sorts the entries of every aggregation in
 * one sort whose first key is the aggregation, so aggsortrev reverses the
 * order of the aggregations as well as of each one's entries.
 */
#pragma D option quiet
#pragma D option aggsortrev

BEGIN
{
	@first["a"] = sum(1); @first["b"] = sum(2);
	@second[1] = count(); @second[2] = count(); @second[2] = count();
	@third = max(7);
	exit(0);
}
