/*
 * ASSERTION: a string from an address the program names (here arg0 + 16,
 * arg0 + 32: unmapped) faults with "invalid address" in a comparison and
 * as an aggregation key, while the framework's own strings (execname,
 * probeprov, probename), which DIF reads in place, compare and key as
 * any string does.
 */
#pragma D option quiet

BEGIN
/stringof(arg0 + 16) == "x"/
{
	printf("not reached\n");
}

BEGIN
{
	@[stringof(arg0 + 32)] = count();
}

BEGIN
{
	printf("%d %d %d %d\n", execname == execname, probeprov == "dtrace",
	    probename < probeprov, execname != probename);
	@k[probename, execname] = count();
	@k[probename, execname] = count();
	@k[probeprov, "x"] = count();
	exit(0);
}
