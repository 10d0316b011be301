/*
 * ASSERTION: a clause of trace() actions of integers, which the lean
 * clause machine runs (trace/lean.c: a fixed record of one word per
 * action), records what the general one records (tst.trace_record_nojit.d,
 * jit=0, the same golden): the values in action order at their types'
 * widths; a division by zero in the second action voids the record and
 * reports action 2 to ERROR.  (Quiet trace() prints the values with no
 * separator: 0 44, 1 45, 2 46.)
 */
#pragma D option quiet

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
