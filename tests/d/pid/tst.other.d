/*
 * ASSERTION: pid probes are the target's alone: another process running
 * the same program (the target's child, which execs /bin/pidloop 4 while
 * the target's probes are in place) runs its 4 calls of inner untouched
 * and exits normally; only the target's own 4 calls fire.  The two exits
 * are counted and printed at the end: on several CPUs the order of records
 * from different CPUs is not the order of events.
 * @@options: -q -c '/bin/pidloop -e 4'
 */
pid$target::inner:entry
{
	@calls[pid == $target ? "target" : "other"] = count();
}

proc:::exit
/execname == "pidloop"/
{
	@reason[pid == $target ? "target" : "other", arg0] = count();
}

syscall::exit_group:entry
/execname == "pidloop"/
{
	@status[pid == $target ? "target" : "other", arg0] = count();
}

END
{
	printa("%s status %d\n", @status);
	printa("%s exit reason %d\n", @reason);
}
