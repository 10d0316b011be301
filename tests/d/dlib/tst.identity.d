/*
 * ASSERTION: DTrace's built-in variables of identity: gid 0 in BEGIN (the
 * console's dtrace runs as root; a process's is its own, proc/tst.uid.d),
 * and those Sonde has one value of: projid 0, zonename "global", cwd and
 * root "/"; they work in predicates and as aggregation keys like any
 * variable.
 */
#pragma D option quiet

BEGIN
/zonename == "global" && gid == 0/
{
	@[zonename, cwd, root] = count();
	printf("%d %d %s %s %s\n", gid, projid, zonename, cwd, root);
	exit(0);
}

END
{
	printa("%s %s %s %@d\n", @);
}
