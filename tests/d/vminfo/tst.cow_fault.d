/*
 * ASSERTION: vminfo:::cow_fault fires for a program that forks and writes
 * (pingpong's two processes write their stacks and data after the fork),
 * with arg0 the pages copied (0 or 1 each).
 * @@options: -q -c '/bin/pingpong 2'
 */
vminfo:::cow_fault
/execname == "pingpong"/
{
	n++;
	copied += arg0;
	bad += arg0 > 1;
}

END
{
	printf("faults %s, copied %s, bad %d\n", n > 0 ? "yes" : "no", copied > 0 ? "yes" : "no", bad);
}
