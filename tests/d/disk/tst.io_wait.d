/*
 * ASSERTION: io:::wait-start and wait-done pair up in the waiting thread,
 * around its sleep on one buf: wait-done has B_DONE set, wait-start (when
 * it fires: a request already done is not waited for) does not, and
 * every request that starts finishes (done) by the end.  fsstress on the
 * disk (one process: its output is in order) makes reads and writes.
 * @@options: -q -c '/bin/fsstress /disk 1 300'
 */
io:::start		{ inflight[arg0] = 1; starts++; }
io:::done		/inflight[arg0]/ { inflight[arg0] = 0; dones++; }
io:::wait-start		{ self->w = arg0; ws++; notdone += (args[0]->b_flags & B_DONE) == 0; }
io:::wait-done		/self->w == arg0/ { wd++; isdone += (args[0]->b_flags & B_DONE) != 0; self->w = 0; }

END
{
	printf("paired %d, B_DONE only after the wait %d, every start done %d\n",
	    ws == wd, notdone == ws && isdone == wd, starts == dones && starts > 0);
}
