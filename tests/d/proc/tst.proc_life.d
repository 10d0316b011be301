/*
 * ASSERTION: the proc provider follows a program's life in its own
 * context (start, lwp-start, exec-success, then exit with reason 1,
 * CLD_EXITED), and pid/ppid/execname are the process's.
 * @@options: -q -c /bin/true
 */
proc:::start, proc:::lwp-start, proc:::exec-success, proc:::exit
/pid != 0/
{
	printf("%s %s pid>0:%d ppid:%d arg0:%d\n", probename, execname, pid > 0, ppid, arg0);
}
