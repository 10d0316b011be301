/*
 * profile.d - where the CPUs spend their time: sample the kernel program
 * counter 997 times a second on every CPU for five seconds, count the
 * samples by PC (arg0; 0 when the CPU was in user mode) and print the
 * busiest places as symbol+offset.
 *
 *   sonde# dtrace -s /scripts/profile.d
 */
#pragma D option quiet

profile-997
/arg0 != 0/
{
	@samples[arg0] = count();
}

tick-5s
{
	exit(0);
}

END
{
	printa("%-48a %@8d\n", @samples);
}
