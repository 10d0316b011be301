#!/usr/sbin/dtrace -s
/*
 * iotop.d - like top(1) for the disks: every INTERVAL seconds, the disk
 * I/O each process started in that interval, by device and direction,
 * busiest last.
 *
 * Columns:
 *   PID      the process running when the request started (0 and a kernel
 *            thread's name for write-back and read-ahead)
 *   COMM     its name (execname)
 *   DEVICE   the disk (devinfo_t dev_statname)
 *   D        R (b_flags & B_READ) or W
 *   COUNT    the requests
 *   BYTES    their bytes (b_bcount)
 *
 *   sonde# dtrace -s /scripts/iotop.d              (every 5 seconds)
 *   sonde# dtrace -s /scripts/iotop.d 1 -c '/bin/wc /disk/README'
 *
 * $1 is the interval in seconds (defaultargs: absent reads as 0, which
 * means 5).  Each interval is printed at the tick and once more at the end,
 * so a -c command shorter than INTERVAL still shows what it did.
 *
 * Providers: io (start: args[0] bufinfo_t, args[1] devinfo_t,
 * dlang/lib/io.d), profile (tick-1s).
 */
#pragma D option quiet
#pragma D option defaultargs

inline int INTERVAL = $1 > 0 ? $1 : 5;

dtrace:::BEGIN
{
	secs = 0;
	last = timestamp;
	printf("Tracing... output every %d seconds.\n", INTERVAL);
}

io:::start
{
	this->d = args[0]->b_flags & B_READ ? "R" : "W";
	@count[pid, execname, args[1]->dev_statname, this->d] = count();
	@bytes[pid, execname, args[1]->dev_statname, this->d] =
	    sum(args[0]->b_bcount);
}

profile:::tick-1s
{
	secs++;
}

profile:::tick-1s,
dtrace:::END
/secs >= INTERVAL || probename == "END"/
{
	printf("\n%Y, the last %d ms\n", walltimestamp,
	    (timestamp - last) / 1000000);
	printf("%6s %-16s %-8s %1s %7s %10s\n", "PID", "COMM", "DEVICE", "D",
	    "COUNT", "BYTES");
	printa("%6d %-16s %-8s %1s %@7d %@10d\n", @count, @bytes);
	trunc(@count);
	trunc(@bytes);
	secs = 0;
	last = timestamp;
}
