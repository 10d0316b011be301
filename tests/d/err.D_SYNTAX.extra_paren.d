/*
 * Asserts D_SYNTAX: a ) that closes nothing is DTrace's "extra ) in input
 * stream".
 */
BEGIN
{
	trace(1));
}
