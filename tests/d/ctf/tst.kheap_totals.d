/*
 * ASSERTION: the kernel heap's counters are a kernel global D reads through
 * CTF (`kheap_totals, kernel/kheap.c): this consumer's buffers are
 * allocated, so the heap holds pages of both kinds, has handed out more
 * blocks than it took back, and its bytes in use fit in the pages it holds.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", `kheap_totals.hs_allocs > `kheap_totals.hs_frees,
	    `kheap_totals.hs_slab_pages > 0, `kheap_totals.hs_large_pages > 0,
	    `kheap_totals.hs_inuse <= (`kheap_totals.hs_slab_pages +
	    `kheap_totals.hs_large_pages) * 4096 * 2);
	exit(0);
}
