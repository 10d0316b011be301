/*
 * Tasks 2 and 3: every request's system calls are traced speculatively;
 * only the failing request's trace is committed, the others discarded.
 */
#pragma D option quiet

pid$target::request_serve:entry
{
	self->spec = speculation();
	speculate(self->spec);
	printf("request %d\n", arg0);
}

syscall:::return
/self->spec/
{
	speculate(self->spec);
	printf("  syscall %s = %d errno %d\n", probefunc, (int)arg0, errno);
}

pid$target::request_serve:return
/self->spec && (long)arg1 < 0/
{
	commit(self->spec);
	self->spec = 0;
}

pid$target::request_serve:return
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}
