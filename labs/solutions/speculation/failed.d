/*
 * Task 1: which request failed?  The id is request_serve's first argument
 * at entry; the outcome is its return value (arg1 at return).
 */
#pragma D option quiet

pid$target::request_serve:entry
{
	self->id = arg0;
}

pid$target::request_serve:return
/(long)arg1 < 0/
{
	printf("request %d failed\n", self->id);
}
