/*
 * oncpu.d - CPU time by thread: from each on-cpu to the next off-cpu of the
 * same thread (sdt sched probes, a thread-local timestamp), summed by thread
 * name, for five seconds or until the -c command ends.
 *
 *   sonde# dtrace -s /scripts/oncpu.d -c 'run spin 2000; sleep 3'
 */
#pragma D option quiet

sdt:::on-cpu
{
	self->ts = timestamp;
}

sdt:::off-cpu
/self->ts/
{
	@ns[execname] = sum(timestamp - self->ts);
	@switches[execname] = count();
	self->ts = 0;
}

tick-5s
{
	exit(0);
}

END
{
	printf("%-20s %14s %10s\n", "THREAD", "ON-CPU (ns)", "SWITCHES");
	printa("%-20s %@14d %@10d\n", @ns, @switches);
}
