/*
 * ASSERTION: io:::start for cat's read of a file on the ext2 disk: args[0]
 * is a bufinfo_t (a read, B_READ, of one 1 KiB block, no bytes left over,
 * b_edev's major and minor the device's), args[1] the devinfo_t of
 * vioblk0 and args[2] the fileinfo_t of /disk/etc/motd at offset 0 of the
 * ext2 file system at /disk; io:::done fires for the same buf before
 * B_DONE is set (in the interrupt, on whichever CPU takes it: so the
 * records are aggregated and printed at the end, not in firing order,
 * which DTrace does not promise across CPUs).
 * @@options: -q -c '/bin/cat /disk/etc/motd'
 */
io:::start
/args[2]->fi_name == "motd"/
{
	@start[args[2]->fi_pathname, args[2]->fi_dirname, args[2]->fi_name,
	    args[0]->b_flags & B_READ ? "R" : "W", args[2]->fi_offset, args[2]->fi_fs,
	    args[2]->fi_mount] = count();
	@dev[args[1]->dev_name, args[1]->dev_statname, args[1]->dev_pathname,
	    args[1]->dev_instance, getmajor(args[0]->b_edev) == args[1]->dev_major,
	    getminor(args[0]->b_edev)] = count();
	@buf[args[0]->b_bcount, args[0]->b_resid, args[0]->b_error, args[0]->b_lblkno,
	    args[0]->b_flags & B_ASYNC] = count();
	started[arg0] = 1;
}

io:::done
/started[arg0]/
{
	@done[args[2]->fi_pathname, (args[0]->b_flags & B_DONE) != 0] = count();
	started[arg0] = 0;
}

END
{
	printa("start %s %s %s %s off=%d fs=%s mount=%s: %@d\n", @start);
	printa("dev %s %s %s instance=%d major-ok=%d minor=%d: %@d\n", @dev);
	printa("buf bcount=%d resid=%d error=%d lblkno=%d async=%d: %@d\n", @buf);
	printa("done %s B_DONE=%d: %@d\n", @done);
}
