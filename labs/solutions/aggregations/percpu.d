/* Task 1: profile-997 fires on every CPU: count the samples by CPU for one second. */
profile-997
{
	@[cpu] = count();
}

tick-1s
{
	exit(0);
}
