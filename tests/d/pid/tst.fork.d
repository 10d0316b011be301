/*
 * ASSERTION: a process that forks while its pid probes are enabled gives
 * the child a copy without the traps: the child runs the same loop (4
 * calls of inner) untraced and exits normally, the probes fire only in
 * the target, and the target's own exit status says the child's total
 * was right.
 * @@options: -q -c '/bin/pidloop -f 4'
 */
pid$target::inner:entry
{
	@calls[pid == $target ? "target" : "child"] = count();
}

proc:::exit
/execname == "pidloop"/
{
	printf("%s exit reason %d\n", pid == $target ? "target" : "child", arg0);
}

syscall::exit_group:entry
/execname == "pidloop"/
{
	printf("%s status %d\n", pid == $target ? "target" : "child", arg0);
}
