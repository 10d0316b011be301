/*
 * ASSERTION: once exit() is called from a profile probe, tracing is
 * draining: the later clauses of that same firing and any later firing
 * of non-dtrace probes do not run (nor the first clause again); END does.
 */
#pragma D option quiet

int stopped;

profile:::tick-1000
{
	printf("first clause\n");
	stopped = 1;
	exit(0);
}

profile:::tick-1000
{
	printf("must not print\n");
}

profile:::tick-5000
/stopped/
{
	printf("must not print either\n");
}

END
{
	printf("end\n");
}
