/*
 * ASSERTION: a process that forks while its pid probes are enabled gives
 * the child a copy without the traps: the child runs the same loop (4
 * calls of inner) untraced and exits normally, the probes fire only in
 * the target, and the target's own exit status says the child's total
 * was right.  The exits are counted and printed at the end: on several
 * CPUs the order of records from different CPUs is not the order of events.
 * @@options: -q -c '/bin/pidloop -f 4'
 */
pid$target::inner:entry
{
	@calls[pid == $target ? "target" : "child"] = count();
}

proc:::exit
/execname == "pidloop"/
{
	@reason[pid == $target ? "target" : "child", arg0] = count();
}

syscall::exit_group:entry
/execname == "pidloop"/
{
	@status[pid == $target ? "target" : "child", arg0] = count();
}

END
{
	printa("%s status %d\n", @status);
	printa("%s exit reason %d\n", @reason);
}
