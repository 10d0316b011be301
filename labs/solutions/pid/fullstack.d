/*
 * Task 5: a stack with request_serve in it: at request_path's entry the
 * caller is at [rsp] (the frame is not made yet), and request_serve,
 * which made a frame, is on the %rbp chain.  The predicate picks the
 * failing request: request_path(id, bad) with id == bad.
 */
#pragma D option quiet

pid$target::request_path:entry
/arg0 == arg1/
{
	ustack();
}
