/*
 * ASSERTION: tst.trace_record.d with the JIT off (jit=0), so on the
 * general clause machine: the same golden as the lean one's.
 */
#pragma D option quiet
#pragma D option jit=0

int n;

profile:::tick-10ms
/n < 3/
{
	trace(n);
	trace((char)(n + 300));
}

profile:::tick-10ms
/n == 3/
{
	trace(n);
	trace(100 / (n - 3));
}

profile:::tick-10ms
{
	n++;
}

profile:::tick-10ms
/n == 6/
{
	exit(0);
}

dtrace:::ERROR
{
	printf("\nerror in action %d, fault %d\n", arg2, arg4);
}
