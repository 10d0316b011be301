/*
 * ASSERTION: sysinfo's buffer statistics agree with the io provider:
 * every request that starts on a disk is one bread (a read) or one bwrite
 * (a write) in the thread that starts it, just before io:::start; lread
 * counts the buffer cache's logical reads.  cat of a file on /disk.
 * Counted in aggregations (exact when CPUs fire at once).
 * @@options: -q -c '/bin/cat /disk/etc/motd'
 */
BEGIN { @unmatched = sum(0); }

sysinfo:::bread
{
	self->stat = 1;
	@seen["bread"] = max(1);
}

sysinfo:::bwrite
{
	self->stat = 2;
}

sysinfo:::lread
{
	@seen["lread"] = max(1);
}

io:::start
/self->stat == 0/
{
	@unmatched = sum(1);
}

io:::start
/self->stat != 0/
{
	@[self->stat == 1 ? "bread" : "bwrite", args[0]->b_flags & B_READ ? "R" : "W"] = count();
	self->stat = 0;
}

END
{
	printa("%s %s matched\n", @);
	printa("unmatched %@d\n", @unmatched);
	printa("%s seen %@d\n", @seen);
}
