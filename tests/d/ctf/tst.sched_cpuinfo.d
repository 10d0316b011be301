/*
 * ASSERTION: sched:::enqueue and sched:::dequeue have args[2], as in
 * DTrace: the CPU whose run queue the thread goes on or leaves, as a
 * cpuinfo_t * (dlang/lib/sched.d) translated from the thread the probe
 * passes as arg0 (its t_cpu).  A dequeue is from the running CPU's queue
 * or stolen from another's, so its cpu_id is a CPU's; Sonde has no
 * processor sets (cpu_pset -1).  Each check is the minimum over every
 * firing (1: it held every time); the run makes both probes fire.
 * @@options: -q -c 'pingpong 3'
 */
sched:::enqueue
{
	this->t = (struct thread *)arg0;
	@eid = min(args[2]->cpu_id == this->t->t_cpu);
	@epset = min(args[2]->cpu_pset == -1);
	@erange = min(args[2]->cpu_id >= 0 && args[2]->cpu_id < `ncpus);
}

sched:::dequeue
{
	@drange = min(args[2]->cpu_id >= 0 && args[2]->cpu_id < `ncpus);
	@dchip = min(args[2]->cpu_chip == 0 && args[2]->cpu_lgrp == 0);
}

END
{
	printa("enqueue id: %@d\n", @eid);
	printa("enqueue pset: %@d\n", @epset);
	printa("enqueue range: %@d\n", @erange);
	printa("dequeue range: %@d\n", @drange);
	printa("dequeue chip: %@d\n", @dchip);
}
