#!/usr/sbin/dtrace -s
/*
 * execsnoop.d - every successful exec, as it happens: which program each
 * process became, who started it and with what arguments.
 *
 * Columns:
 *   TIME(us)  microseconds since boot (timestamp / 1000)
 *   PID       the process that exec'd
 *   PPID      its parent
 *   UID       its user id
 *   ARGS      its arguments as ps shows them (curpsinfo->pr_psargs)
 *
 *   sonde# dtrace -s /scripts/execsnoop.d -c 'sh -c "ls /scripts; echo hi"'
 *   sonde# dtrace -s /scripts/execsnoop.d          (Ctrl-C to stop)
 *
 * Providers: proc (exec-success fires in the new image, so curpsinfo
 * already describes the new program and its arguments).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
{
	printf("%-12s %6s %6s %5s %s\n", "TIME(us)", "PID", "PPID", "UID", "ARGS");
}

proc:::exec-success
{
	printf("%-12d %6d %6d %5d %s\n", timestamp / 1000, pid, ppid, uid,
	    curpsinfo->pr_psargs);
}
