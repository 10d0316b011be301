/* Task 3: min(), max() and avg() merge across CPUs too (avg as a sum and a count). */
#pragma D option quiet

profile-997
{
	@lo = min(cpu);
	@hi = max(cpu);
	@mean = avg(cpu);
}

tick-1s
{
	exit(0);
}

END
{
	printa("min %@d\n", @lo);
	printa("max %@d\n", @hi);
	printa("avg %@d\n", @mean);
}
