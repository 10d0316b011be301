/*
 * Asserts D_OP_INCOMPAT: a struct thread * and a struct cpu * are
 * different pointer types; one variable cannot hold both.
 */
BEGIN
{
	x = curthread;
	x = &`cpus[0];
}
