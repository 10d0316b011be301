/*
 * Asserts D_OP_ARITH: an if with an empty statement still checks its branches (found by the fuzzer: "if (x) ;" crashed).
 */
BEGIN
{
	if (pid)
		;
	else
		trace("a" * 2);
}
