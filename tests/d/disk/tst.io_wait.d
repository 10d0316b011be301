/*
 * ASSERTION: io:::wait-start and wait-done pair up in the waiting thread,
 * around its sleep on one buf: wait-done has B_DONE set, wait-start (when
 * it fires: a request already done is not waited for) does not, and
 * every request that starts finishes (done) by the end.  fsstress on the
 * disk (one process: its output is in order) makes reads and writes.
 * Each check is a sum that must end at 0, kept in aggregations, which
 * (unlike a global's ++) count exactly when CPUs fire at once.
 * @@options: -q -c '/bin/fsstress /disk 1 300'
 */
BEGIN			{ @unbalanced = sum(0); @unpaired = sum(0); @wrong_flags = sum(0); }
io:::start		{ @unbalanced = sum(1); @started = max(1); }
io:::done		{ @unbalanced = sum(-1); }
io:::wait-start		{ self->w = arg0; @unpaired = sum(1);
			  @wrong_flags = sum((args[0]->b_flags & B_DONE) != 0); }
io:::wait-done		/self->w == arg0/
			{ @unpaired = sum(-1); @wrong_flags = sum((args[0]->b_flags & B_DONE) == 0);
			  self->w = 0; }

END
{
	printa("started %@d\n", @started);
	printa("starts without a done %@d\n", @unbalanced);
	printa("waits without an end %@d\n", @unpaired);
	printa("B_DONE at the wrong time %@d\n", @wrong_flags);
}
