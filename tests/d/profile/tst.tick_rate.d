/*
 * ASSERTION: tick-N fires N times a second: in the first second,
 * tick-100hz and tick-10ms each fire 100 times, within two of each other.
 * The guest clock follows the host's without -icount, and the cyclic
 * facility skips periods a starved vCPU missed, so a loaded host loses some:
 * 50 to 101 passes.  (Under -icount the count is exact: see
 * tools/bench_probe_effect.py.)
 */
/* @@options: -q */
int a, b;

tick-100hz { a++; }
tick-10ms { b++; }

tick-1s
{
	printf("tick-100hz %s\n", a >= 50 && a <= 101 ? "ok" : "wrong");
	printf("tick-10ms %s\n", b >= 50 && b <= 101 ? "ok" : "wrong");
	printf("same rate %s\n", a - b <= 2 && b - a <= 2 ? "ok" : "wrong");
	exit(0);
}
