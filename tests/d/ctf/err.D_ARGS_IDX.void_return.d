/*
 * Asserts D_ARGS_IDX: kfree returns nothing, so its return probe has no
 * args[1] (the Guide: "args[1] is not defined").
 */
fbt::kfree:return
{
	trace(args[1]);
}
