/*
 * ASSERTION: thread-local variables are per thread: the value BEGIN
 * sets (in the dtrace command's thread) is not seen by the workload
 * thread, which has its own, and END sees BEGIN's again.
 * @@options: -q -c 'spin 5'
 */
BEGIN
{
	self->x = 1;
}

fbt::wl_spin_main:entry
{
	printf("workload sees %d\n", self->x);
	self->x = 2;
}

fbt::wl_spin_main:return
{
	printf("workload has %d\n", self->x);
}

END
{
	printf("end sees %d\n", self->x);
}
