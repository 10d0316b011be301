#!/usr/sbin/dtrace -s
/*
 * procsystime.d - where a process spends its system-call time: for each
 * call, how often it was made, the time from entry to return summed, and
 * the mean, printed at the end (Ctrl-C, or when the -c/-p process ends).
 *
 * Columns (most total time last: aggsortpos=1 sorts by TOTAL):
 *   SYSCALL     the call (probefunc)
 *   COUNT       how many returned
 *   TOTAL(ns)   nanoseconds from entry to return, summed (timestamp)
 *   AVG(ns)     TOTAL / COUNT
 *
 *   sonde# dtrace -s /scripts/procsystime.d -c '/bin/ls /scripts'
 *   sonde# dtrace -s /scripts/procsystime.d -p PID
 *
 * Only that process ($target) is traced.  Sonde's compiler needs -c or -p
 * for $target (without, "macro variable $target is not defined"); on a
 * DTrace that reads $target as 0 without them, the script traces every
 * process but dtrace itself.  Elapsed time includes time blocked in the
 * call (sleep, wait4, a read of the console).
 *
 * Providers: syscall (every entry and return).
 */
#pragma D option quiet
#pragma D option aggsortpos=1

dtrace:::BEGIN
/$target != 0/
{
	printf("Tracing pid %d... Ctrl-C or its end to stop.\n", $target);
}

dtrace:::BEGIN
/$target == 0/
{
	printf("Tracing every process... Ctrl-C to stop.\n");
}

syscall:::entry
/$target != 0 ? pid == $target : pid != $pid/
{
	self->ts = timestamp;
}

syscall:::return
/self->ts/
{
	this->ns = timestamp - self->ts;
	@count[probefunc] = count();
	@total[probefunc] = sum(this->ns);
	@avg[probefunc] = avg(this->ns);
	self->ts = 0;
}

dtrace:::END
{
	printf("%-14s %8s %14s %12s\n", "SYSCALL", "COUNT", "TOTAL(ns)",
	    "AVG(ns)");
	printa("%-14s %@8d %@14d %@12d\n", @count, @total, @avg);
}
