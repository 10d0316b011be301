/*
 * ASSERTION: trace() records of several types in one clause share one
 * line after the probe prefix; a second clause starts its own line.
 */
BEGIN
{
	trace(1);
	trace("two");
	trace(3LL);
}

BEGIN
{
	trace((uint8_t)4);
	exit(0);
}
