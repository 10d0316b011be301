/*
 * count-kmalloc.d - how often the kernel heap is asked for memory and how
 * much it hands out, until Ctrl-C or until the command given with -c ends.
 *
 *   sonde# dtrace -s /scripts/count-kmalloc.d -c 'run churn 1000; sleep 2'
 *
 * kmalloc(size) has the requested size in arg0; kfree(p) is counted too,
 * so the two counts show whether the workload gives back what it takes.
 */
#pragma D option quiet

fbt::kmalloc:entry
{
	@allocs = count();
	@bytes = sum(arg0);
	@mean = avg(arg0);
	@largest = max(arg0);
}

fbt::kfree:entry
{
	@frees = count();
}

END
{
	printa("kmalloc calls   %@d\n", @allocs);
	printa("bytes requested %@d\n", @bytes);
	printa("mean request    %@d\n", @mean);
	printa("largest request %@d\n", @largest);
	printa("kfree calls     %@d\n", @frees);
}
