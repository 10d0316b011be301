/*
 * kmem-outstanding.d - heap memory taken and not given back while tracing:
 * every kmalloc is remembered by address in an associative array until its
 * kfree.  At the end: the bytes and blocks still held, and who allocated
 * (by thread name).  A workload that frees what it takes nets out to zero.
 *
 *   sonde# dtrace -s /scripts/kmem-outstanding.d -c 'run churn 500; sleep 2'
 */
#pragma D option quiet

sdt:::kmem-alloc
/arg0 != 0/
{
	size[arg0] = arg1;
	@bytes = sum(arg1);
	@blocks = sum(1);
	@allocs[execname] = count();
}

sdt:::kmem-free
/size[arg0] != 0/
{
	@bytes = sum(-size[arg0]);
	@blocks = sum(-1);
	size[arg0] = 0;
}

END
{
	printa("bytes still held   %@d\n", @bytes);
	printa("blocks still held  %@d\n", @blocks);
	printf("\n%-20s %8s\n", "THREAD", "ALLOCS");
	printa("%-20s %@8d\n", @allocs);
}
