/*
 * ASSERTION: the buffer cache's flusher writes delayed writes
 * asynchronously: a mkdir on /disk dirties blocks, and some 5 s later
 * (BCACHE_AGE_NS) the bflush thread starts their writes with B_ASYNC set,
 * each counted by sysinfo:::bawrite just before its io:::start.  Nothing
 * else writes meanwhile (no sync).
 * @@options: -q -c '/bin/mkdir /disk/bawrite_dir; /bin/sleep 7'
 * @@timeout: 60
 */
sysinfo:::bawrite
{
	self->aw = 1;
	@seen[stringof(curthread->t_name)] = max(1);
}

io:::start
/args[0]->b_flags & B_WRITE/
{
	@w[stringof(curthread->t_name), args[0]->b_flags & B_ASYNC ? "B_ASYNC" : "sync",
	   self->aw ? "after bawrite" : "no bawrite"] = max(1);
	self->aw = 0;
}

END
{
	printa("%s bawrite %@d\n", @seen);
	printa("%s %s %s %@d\n", @w);
}
