/* Step 2: who sends the cross-calls?  (sysinfo:::xcalls fires in the sender's context.) */
sysinfo:::xcalls
{
	@[execname] = count();
}

tick-3s
{
	exit(0);
}
