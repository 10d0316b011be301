/*
 * ASSERTION: ftruncate() is not a destructive action (DTrace lists it with
 * the output actions, not the destructive ones), so it is enabled without
 * -w; on the console it does nothing and the records around it print.
 * The kernel decides this from the DOF's actions (trace/dof.c), not from
 * the consumer's word.
 */
/* @@options: -q */

BEGIN
{
	printf("before\n");
	ftruncate();
	printf("after\n");
	exit(0);
}
