#!/usr/sbin/dtrace -s
/*
 * iosnoop.d - every disk I/O as it completes: when, on which device, which
 * way, where, how big, how long it took, who asked for it and for which
 * file.
 *
 * Columns:
 *   TIME(us)  microseconds since boot at completion (timestamp / 1000)
 *   DEVICE    the disk (devinfo_t dev_statname: "vioblk0")
 *   D         R for a read (b_flags & B_READ), W for a write
 *   BLOCK     the first sector on the device (b_blkno)
 *   SIZE      bytes asked for (b_bcount)
 *   LAT(us)   microseconds from io:::start to io:::done
 *   PID COMM  the process running when the request started (the one the
 *             buffer cache was working for; 0 and a kernel thread's name
 *             for write-back and read-ahead)
 *   FILE      the file the block belongs to (fileinfo_t fi_pathname);
 *             <none> for metadata: superblock, inode tables, bitmaps
 *
 *   sonde# dtrace -s /scripts/iosnoop.d -c '/bin/wc /disk/README'
 *   sonde# dtrace -s /scripts/iosnoop.d            (Ctrl-C to stop)
 *
 * io:::done may fire in the disk's interrupt, in no process's context, so
 * what is known at io:::start (the time, the process) is kept in global
 * arrays keyed by the request (its device and first block) until it is
 * done.
 *
 * Providers: io (start, done; args[0] bufinfo_t, args[1] devinfo_t,
 * args[2] fileinfo_t: dlang/lib/io.d).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
{
	printf("%-12s %-8s %1s %10s %7s %8s %6s %-16s %s\n", "TIME(us)",
	    "DEVICE", "D", "BLOCK", "SIZE", "LAT(us)", "PID", "COMM", "FILE");
}

io:::start
{
	start[args[0]->b_edev, args[0]->b_blkno] = timestamp;
	who[args[0]->b_edev, args[0]->b_blkno] = pid;
	comm[args[0]->b_edev, args[0]->b_blkno] = execname;
}

io:::done
/start[args[0]->b_edev, args[0]->b_blkno]/
{
	this->k = args[0]->b_blkno;
	printf("%-12d %-8s %1s %10d %7d %8d %6d %-16s %s\n", timestamp / 1000,
	    args[1]->dev_statname, args[0]->b_flags & B_READ ? "R" : "W",
	    this->k, args[0]->b_bcount,
	    (timestamp - start[args[0]->b_edev, this->k]) / 1000,
	    who[args[0]->b_edev, this->k], comm[args[0]->b_edev, this->k],
	    args[2]->fi_pathname);
	start[args[0]->b_edev, this->k] = 0;
	who[args[0]->b_edev, this->k] = 0;
	comm[args[0]->b_edev, this->k] = "";
}
