#!/usr/sbin/dtrace -s
/*
 * rwtop.d - like top(1) for read(2)/write(2): every INTERVAL seconds, the
 * bytes each process read and wrote in that interval, busiest last.
 *
 * Columns:
 *   PID     the process
 *   COMM    its name (execname)
 *   D       R (read) or W (write)
 *   CALLS   the calls that moved data in the interval
 *   BYTES   bytes moved
 *
 *   sonde# dtrace -s /scripts/rwtop.d              (every 5 seconds)
 *   sonde# dtrace -s /scripts/rwtop.d 1            (every second)
 *   sonde# dtrace -s /scripts/rwtop.d 1 -c 'cat /scripts/oncpu.d'
 *
 * $1 is the interval in seconds (defaultargs: absent reads as 0, which
 * means 5).  Only successful calls (return value > 0) count; dtrace's own
 * output is left out.  Each interval is printed at the tick and at the end,
 * so a -c command shorter than INTERVAL still shows what it did.
 *
 * Providers: syscall (read and write entry and return), profile (tick-1s).
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

syscall::read:entry,
syscall::write:entry
/pid != $pid/
{
	self->in = 1;
}

syscall::read:return,
syscall::write:return
/self->in && (int)arg0 > 0/
{
	this->d = probefunc == "read" ? "R" : "W";
	@calls[pid, execname, this->d] = count();
	@bytes[pid, execname, this->d] = sum(arg0);
}

syscall::read:return,
syscall::write:return
{
	self->in = 0;
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
	printf("%6s %-16s %1s %8s %10s\n", "PID", "COMM", "D", "CALLS", "BYTES");
	printa("%6d %-16s %1s %@8d %@10d\n", @calls, @bytes);
	trunc(@calls);
	trunc(@bytes);
	secs = 0;
	last = timestamp;
}
