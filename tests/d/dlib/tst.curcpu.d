/*
 * ASSERTION: curcpu is a cpuinfo_t * (the D library's translation of the
 * CPU the probe fires on): curcpu->cpu_id is the built-in cpu, in a
 * predicate and in a body, from BEGIN and from profile probes on every CPU;
 * cpuinfo_t has DTrace's layout.
 */
#pragma D option quiet

BEGIN
/curcpu->cpu_id == cpu/
{
	printf("begin %d %d %d %d\n", curcpu->cpu_id == cpu, curcpu->cpu_pset,
	    curcpu->cpu_chip, curcpu->cpu_lgrp);
	printf("sizes %d %d %d\n", sizeof (cpuinfo_t), sizeof (curcpu->cpu_id),
	    offsetof(cpuinfo_t, cpu_info));
}

profile-997
/n < 20/
{
	n++;
	bad += curcpu->cpu_id != cpu;
}

tick-10ms			/* one CPU: the report is printed once */
/n >= 20/
{
	printf("profile mismatches %d\n", bad);
	exit(0);
}
