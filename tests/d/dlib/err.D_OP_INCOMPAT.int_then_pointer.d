/*
 * ASSERTION: a global created as an integer keeps that type: a later
 * clause may not store a pointer (curthread, a kthread_t *) into it.
 * Without the check this program would run forever.
 */
BEGIN
{
	x = 1;
}

profile-1
{
	x = curthread;
}
