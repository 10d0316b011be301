/* Task 2: the target's system calls by name. */
syscall:::entry
/pid == $target/
{
	@[probefunc] = count();
}
