/*
 * ASSERTION: a busy profile probe whose every record exceeds the tiny
 * buffer drops every firing (reported on stderr as "N drops on CPU 0",
 * N timing-dependent and not compared) while tracing goes on: a counter
 * kept by a clause that records nothing reaches its bound, the exit()
 * record (which fits) ends the run, END runs and the status is 0.
 * @@options: -x bufsize=64
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
	trace("a string that is far longer than the whole buffer");
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
