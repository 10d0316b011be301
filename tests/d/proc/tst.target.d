/*
 * ASSERTION: with -c, $target is the pid of the process dtrace created for
 * the command, held until tracing starts: its calls from the first one on
 * are seen with pid == $target, while BEGIN runs in the dtrace command
 * (execname "dtrace", a pid of its own); dtrace ends when the target does.
 */
/* @@options: -q -c /bin/false */

BEGIN
{
	printf("begin in %s, target %d\n", execname, pid == $target);
}

syscall::exit_group:entry
/pid == $target/
{
	printf("exit_group by %s: %d\n", execname, arg0);
}

proc:::exit
/pid == $target/
{
	printf("exit %d\n", arg0);
}
