/*
 * ASSERTION: an aggregation fed by a busy probe with a bounded count
 * holds exactly that count at exit.
 */
#pragma D option quiet

int n;

profile:::tick-1000
/n < 20/
{
	n++;
	@ticks = count();
	@parity[n % 2 ? "odd" : "even"] = sum(n);
}

profile:::tick-1000
/n == 20/
{
	exit(0);
}
