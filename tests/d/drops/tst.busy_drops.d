/*
 * ASSERTION: a busy profile probe fills a tiny buffer (three records)
 * long before the consumer reads it, so most firings are dropped
 * (reported on stderr as "N drops on CPU 0", N timing-dependent and not
 * compared) while tracing goes on: a counter kept by a clause that
 * records nothing reaches its bound, the exit() record (whose room is
 * kept) ends the run, END runs and the status is 0.
 * The dropped clause traces an empty string (16 bytes with strsize=8),
 * which prints nothing in quiet mode, so what is kept does not show.
 * @@options: -x bufsize=64 -x strsize=8
 */
#pragma D option quiet

int n;

profile:::tick-1000
/n < 50/
{
	n++;
}

profile:::tick-1000
/n < 50/
{
	trace("");
}

profile:::tick-1000
/n == 50/
{
	exit(0);
}

END
{
	printf("fired %d\n", n);
}
