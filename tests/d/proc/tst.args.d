/*
 * ASSERTION: the proc provider's arguments are typed as the Dynamic
 * Tracing Guide documents them: create's args[0] is the child's psinfo_t *,
 * signal-send's args[0] and args[1] the target's lwpsinfo_t * and
 * psinfo_t * and args[2] the signal (an int), exec's args[0] the path (a
 * char *), exec-failure's the errno and exit's the reason (ints).
 * (/bin/proccheck forks children, kills one with SIGTERM, execs /bin/false
 * in one and fails an exec itself.  Aggregated, so that the order of the
 * CPUs' buffers does not matter.)
 * @@options: -q -c /bin/proccheck
 */
proc:::create
/pid == $target/
{
	@create[args[0]->pr_fname, args[0]->pr_ppid == pid, args[0]->pr_pid > pid,
	    args[0]->pr_argc] = count();
}

proc:::signal-send
/pid == $target && args[2] == 15/
{
	@signal[args[2], args[1]->pr_fname, args[0]->pr_lwpid != 0, args[1]->pr_ppid == pid] =
	    count();
}

proc:::exec
/ppid == $target/
{
	@exec[stringof(args[0])] = count();
}

proc:::exec-failure, proc:::exit
/pid == $target || ppid == $target/
{
	@[probename, args[0]] = count();
}

END
{
	printa("create %s ppid-ok %d pid-ok %d argc %d: %@d\n", @create);
	printa("signal-send %d to %s lwp-ok %d ppid-ok %d: %@d\n", @signal);
	printa("exec %s: %@d\n", @exec);
	printa("%s %d %@d\n", @);
}
