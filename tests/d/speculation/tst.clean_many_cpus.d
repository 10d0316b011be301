/*
 * ASSERTION: a speculation with records on every CPU is cleaned by the
 * CPUs themselves at the cleanrate (101 Hz by default), not only when the
 * consumer next reads its buffers: with the consumer reading once at the
 * end (switchrate=10s) and nspec=1, each of five rounds gets the one
 * buffer 200 ms after the previous round's commit, no speculation fails as
 * "available buffer(s) still busy", and every round's record is committed.
 * (On one CPU the commit completes at once; the test matters on 2 or more.)
 */
#pragma D option quiet
#pragma D option nspec=1
#pragma D option specsize=1m
#pragma D option strsize=16
#pragma D option switchrate=10s

BEGIN
{
	s = 0;
	t = 0;
	ok = 0;
}

profile-997
/s != 0/
{
	speculate(s);
	printf("%s", "");
}

tick-100ms
{
	t++;
}

tick-100ms
/t % 3 == 1 && t < 15/
{
	s = speculation();
	ok += s != 0;
}

tick-100ms
/t % 3 == 1 && s != 0/
{
	speculate(s);
	printf("round %d\n", t / 3 + 1);
}

tick-100ms
/t % 3 == 2/
{
	commit(s);
	s = 0;
}

tick-100ms
/t == 16/
{
	printf("%d of 5 speculations\n", ok);
	exit(0);
}
