/* Task 4: who is on the CPU, sampled 997 times a second. */
profile-997
{
	@[execname] = count();
}
