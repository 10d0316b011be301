/*
 * Asserts D_SYNTAX: a provider definition's probes take plain argument
 * lists; DTrace's translated form (`probe p(a) : (b)`) is not supported.
 */
provider foo { probe bar(int) : (int); };
BEGIN
{
	trace(1);
}
