/*
 * ASSERTION: a keyless aggregation updated by the lean clause machine
 * (trace/lean.c: its values cached per CPU) starts afresh after trunc():
 * five firings, trunc(), then three more firings print 3, and a keyed
 * count and a sum() of a constant on the same firings print theirs.
 */
#pragma D option quiet

int n;

profile:::tick-10ms
/n < 5/
{
	@ = count();
}

profile:::tick-10ms
/n == 5/
{
	trunc(@);
}

profile:::tick-10ms
/n >= 300 && n < 303/
{
	@ = count();
}

profile:::tick-10ms
/n >= 300 && n < 303/
{
	@k[n % 2] = count();
}

profile:::tick-10ms
/n >= 300 && n < 303/
{
	@s = sum(2);
}

profile:::tick-10ms
{
	n++;
}

profile:::tick-10ms
/n == 305/
{
	printa("count %@d\n", @);
	printa("key %d %@d\n", @k);
	printa("sum %@d\n", @s);
	exit(0);
}
