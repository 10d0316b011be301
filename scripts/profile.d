/*
 * profile.d - where the CPUs spend their time: sample the kernel program
 * counter 997 times a second on every CPU for five seconds and count the
 * samples by function (arg0 is the kernel PC, 0 when the CPU was in user
 * mode); printed busiest last.  An idle machine shows the idle loop.
 *
 *   sonde# dtrace -s /scripts/profile.d
 *   sonde# dtrace -s /scripts/profile.d -c 'run spin 3000; sleep 3'
 */
#pragma D option quiet

profile-997
/arg0 != 0/
{
	@samples[func(arg0)] = count();
}

tick-5s
{
	exit(0);
}
