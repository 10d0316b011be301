/*
 * ASSERTION: the aggregation buffer holds only what is aggregated between
 * two readings; the consumer keeps the long-running state, read at
 * aggrate ("Minimizing Drops").  A 1k aggsize holds 32 one-word keys, but
 * read every 20 ms it takes 60 new keys over 0.6 s without a drop (with
 * the default aggrate, once a second, most of them would be aggregation
 * drops).  min(), max(), sum() and count() merge across the readings.
 * @@options: -x aggsize=1k -x aggrate=20ms
 */
#pragma D option quiet

int i;

tick-10ms
/i < 60/
{
	@keys[i] = count();
	@lo = min(i);
	@hi = max(i);
	@sum = sum(i);
	@n = count();
	i++;
}

tick-10ms
/i == 60/
{
	exit(0);
}

END
{
	printa("%d:%@d ", @keys);
	printa("\nmin %@d", @lo);
	printa(" max %@d", @hi);
	printa(" sum %@d", @sum);
	printa(" count %@d\n", @n);
}
