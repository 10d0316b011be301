/*
 * Asserts D_NOREG: an expression that needs more than seven registers
 * cannot be compiled when its operands have side effects (here the
 * innermost ++), which the generator does not reorder.
 */
BEGIN
{
	trace(pid + (pid + (pid + (pid + (pid + (pid + (pid + (pid + x++))))))));
}
