/*
 * ASSERTION: -c runs a workload and tracing stops when it ends: the
 * workload's main function is entered and returns exactly once, END
 * fires afterwards, and the status is 0 without any exit().
 * @@options: -q -c 'spin 20'
 */
fbt::wl_spin_main:entry
{
	printf("%s:%s\n", probefunc, probename);
}

fbt::wl_spin_main:return
{
	printf("%s:%s\n", probefunc, probename);
}

END
{
	printf("end\n");
}
