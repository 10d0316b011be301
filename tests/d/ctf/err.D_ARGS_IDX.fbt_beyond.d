/*
 * Asserts D_ARGS_IDX: kmalloc(size_t) has one argument, so its entry
 * probe has no args[1].
 */
fbt::kmalloc:entry
{
	trace(args[1]);
}
