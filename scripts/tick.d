/*
 * tick.d - a heartbeat: print the time since boot once a second, five
 * times, then stop.  Shows a global variable, a predicate and exit().
 *
 *   sonde# dtrace -s /scripts/tick.d
 */
#pragma D option quiet

int ticks;

tick-1s
{
	ticks++;
	printf("tick %d: %d ms since boot\n", ticks, timestamp / 1000000);
}

tick-1s
/ticks == 5/
{
	exit(0);
}
