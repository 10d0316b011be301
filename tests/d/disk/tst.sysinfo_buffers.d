/*
 * ASSERTION: sysinfo's buffer statistics agree with the io provider:
 * every request that starts on a disk is one bread (a read) or one bwrite
 * (a write) on the CPU that starts it, just before io:::start; lread
 * counts the buffer cache's logical reads, at least one per block that
 * had to be read.  cat of a file on /disk, then sync's writes.
 * @@options: -q -c '/bin/cat /disk/etc/motd'
 */
sysinfo:::bread
{
	self->stat = 1;
}

sysinfo:::bwrite
{
	self->stat = 2;
}

io:::start
/self->stat == 0/
{
	unmatched++;
}

io:::start
/self->stat != 0/
{
	@[self->stat == 1 ? "bread" : "bwrite", args[0]->b_flags & B_READ ? "R" : "W"] = count();
	self->stat = 0;
}

sysinfo:::lread
{
	lread++;
}

sysinfo:::bread
{
	bread++;
}

END
{
	printa("%s %s matched\n", @);
	printf("unmatched %d, lread >= bread: %d\n", unmatched, lread >= bread && bread > 0);
	printf("bread %s\n", bread > 0 ? "seen" : "none");
}
