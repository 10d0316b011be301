/* Task 3: the user stack of the open that fails. */
syscall::open:return
/pid == $target && errno != 0/
{
	ustack();
}
