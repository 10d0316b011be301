/*
 * ASSERTION: kmem-alloc and kmem-free give (address, size); every block
 * the churn workload frees was allocated with an address and a size the
 * allocator rounded up to at least what was asked.
 */
/* @@options: -q -c 'run churn 20' */
sdt::kmalloc:kmem-alloc
/arg0 != 0/
{
	@bad = sum(arg1 == 0 ? 1 : 0);
}

sdt::kfree:kmem-free
{
	@small = sum(arg1 < 16 ? 1 : 0);
}

END
{
	printa("bad sizes %@d\n", @bad);
	printa("tiny frees %@d\n", @small);
}
