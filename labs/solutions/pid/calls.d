/* Task 1: count the calls of each request_* function of the target. */
pid$target::request_*:entry
{
	@[probefunc] = count();
}
