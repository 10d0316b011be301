/*
 * ASSERTION: tick-N fires N times a second: in the first second,
 * tick-100hz and tick-10ms each fire 100 times, within one of each other.
 * The guest clock follows the host's without -icount, and the cyclic
 * facility skips periods a starved vCPU missed, so a loaded host may lose a
 * few: 90 to 101 passes.
 */
/* @@options: -q */
int a, b;

tick-100hz { a++; }
tick-10ms { b++; }

tick-1s
{
	printf("tick-100hz %s\n", a >= 90 && a <= 101 ? "ok" : "wrong");
	printf("tick-10ms %s\n", b >= 90 && b <= 101 ? "ok" : "wrong");
	printf("same rate %s\n", a - b <= 1 && b - a <= 1 ? "ok" : "wrong");
	exit(0);
}
