/*
 * ASSERTION: pid probes are the target's alone: another process running
 * the same program (the target's child, which execs /bin/pidloop 4 while
 * the target's probes are in place) runs its 4 calls of inner untouched
 * and exits normally; only the target's own 4 calls fire.
 * @@options: -q -c '/bin/pidloop -e 4'
 */
pid$target::inner:entry
{
	@calls[pid == $target ? "target" : "other"] = count();
}

proc:::exit
/execname == "pidloop"/
{
	printf("%s exit reason %d\n", pid == $target ? "target" : "other", arg0);
}

syscall::exit_group:entry
/execname == "pidloop"/
{
	printf("%s status %d\n", pid == $target ? "target" : "other", arg0);
}
