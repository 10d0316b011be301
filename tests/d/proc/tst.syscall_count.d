/*
 * ASSERTION: syscall:::entry counts a program's system calls: pingpong 20
 * makes 2 pipes and 1 fork, its two processes read 40 bytes and write 40,
 * and the parent writes its report once more.
 * @@options: -q -c '/bin/pingpong 20'
 */
syscall::pipe:entry, syscall::fork:entry, syscall::read:entry, syscall::write:entry
/execname == "pingpong"/
{
	@[probefunc] = count();
}

END
{
	printa("%s %@d\n", @);
}
