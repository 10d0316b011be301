/*
 * ASSERTION: kmem-alloc gives (address, size asked) and kmem-free (address,
 * size of the block): bench_kmem allocates and frees 200 bytes 25 times; each
 * of those blocks comes back to kmem-free with the allocator's size class for
 * 200 bytes, 256.
 */
/* @@options: -q -c 'bench_kmem 25 200' */
sdt::kmalloc:kmem-alloc
/arg1 == 200/
{
	@allocs = count();
	@null = sum(arg0 == 0 ? 1 : 0);
	mine[arg0] = 1;
}

sdt::kfree:kmem-free
/mine[arg0]/
{
	@frees = count();
	@sizes = sum(arg1);
	mine[arg0] = 0;
}

END
{
	printa("allocs %@d\n", @allocs);
	printa("failed %@d\n", @null);
	printa("frees %@d\n", @frees);
	printa("bytes freed %@d\n", @sizes);
}
