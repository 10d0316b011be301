/*
 * Asserts D_NOREG: an expression that needs more than seven registers cannot be compiled.
 */
BEGIN
{
	trace(pid + (pid + (pid + (pid + (pid + (pid + (pid + (pid + 1))))))));
}
