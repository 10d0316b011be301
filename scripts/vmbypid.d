#!/usr/sbin/dtrace -s
/*
 * vmbypid.d - virtual-memory events by process: every vminfo probe that
 * fires, counted by the process it fired in and the event, printed at the
 * end (Ctrl-C, or when the -c command ends), commonest last.
 *
 * Columns:
 *   PID     the process (0 for a kernel thread)
 *   COMM    its name (execname)
 *   EVENT   the vminfo statistic (probename); Sonde's are
 *             cow_fault   a write to a copy-on-write page after fork
 *             as_fault    a fault on a user address with no page (no
 *                         demand paging in Sonde: the process dies, or
 *                         copyin returns EFAULT)
 *             prot_fault  a fault on a page mapped without the access
 *                         asked for
 *           (list them with `dtrace -l -P vminfo`)
 *   COUNT   how often
 *
 *   sonde# dtrace -s /scripts/vmbypid.d -c '/bin/pingpong 2'
 *   sonde# dtrace -s /scripts/vmbypid.d            (Ctrl-C to stop)
 *
 * Providers: vminfo (every probe; each firing counts once, whatever arg0,
 * the amount the statistic rises by, says).
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("Tracing... Ctrl-C or the command's end to stop.\n");
}

vminfo:::
{
	@count[pid, execname, probename] = count();
}

dtrace:::END
{
	printf("%6s %-16s %-12s %8s\n", "PID", "COMM", "EVENT", "COUNT");
	printa("%6d %-16s %-12s %@8d\n", @count);
}
