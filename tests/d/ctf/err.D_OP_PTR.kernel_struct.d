/*
 * Asserts D_OP_PTR: `cpus[0] is a struct cpu, not a pointer, so -> cannot
 * be applied to it.
 */
BEGIN
{
	trace(`cpus[0]->cpu_id);
}
