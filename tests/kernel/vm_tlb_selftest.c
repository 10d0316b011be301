/*
 * vm_tlb_selftest.c - in-kernel self-tests of address spaces across CPUs
 * (arch/x86_64/vm_tlb.c, vm_cow.c): a space stays loaded on the CPUs that
 * loaded it (lazy switching) and they are its CPU set; a flush reaches
 * them by cross-call, so a CPU never reads a page through a stale entry;
 * destroying a space makes every CPU that has it loaded leave it before the
 * tables are freed; fork's sharing and a private copy keep the page counts
 * exact.  The CPU tests pass trivially on one CPU (make selftest-check runs
 * them on 4).
 *
 * A test thread loads a space with arch_as_activate and reads it with
 * arch_copyin, as a process's thread would; its own t_as stays NULL, so the
 * switches that move it from CPU to CPU (thread_bind) leave each space
 * loaded where it was.
 */
#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "kernel/xcall.h"

#define TEST_VA 0x200000UL

/* test_space: a space with one page at TEST_VA filled with byte b, or NULL. */
static struct arch_as *test_space(int b)
{
	struct arch_as *as = arch_as_create();
	void *page = as != NULL ? page_alloc() : NULL;

	if (page == NULL || !arch_as_map(as, TEST_VA, page, ARCH_PROT_WRITE)) {
		if (page != NULL)
			page_free(page);
		arch_as_destroy(as);
		return NULL;
	}
	memset(page, b, PAGE_SIZE);
	return as;
}

/* load_and_read: on CPU cpu, load as and read its byte at TEST_VA (so the TLB holds it); -1 on error. */
static int load_and_read(struct arch_as *as, int cpu)
{
	unsigned char b;

	thread_bind(cpu);
	uint64_t flags = arch_irq_save();
	arch_as_activate(as);
	int r = arch_copyin(&b, TEST_VA, 1) == 0 ? b : -1;
	arch_irq_restore(flags);
	return r;
}

static struct arch_as *loaded_on[MAX_CPUS];

static void note_loaded(void *arg)
{
	(void)arg;
	loaded_on[arch_cpu_id()] = arch_as_current();
}

SELFTEST(vm_space_stays_loaded_and_is_flushed_everywhere)
{
	struct arch_as *as = test_space(0x11);
	uint64_t all = ncpus >= 64 ? ~0UL : (1UL << ncpus) - 1;

	ST_ASSERT(as != NULL);
	if (as == NULL)
		return;
	for (int c = 0; c < ncpus; c++)
		ST_ASSERT(load_and_read(as, c) == 0x11);
	thread_bind(0);
	ST_ASSERT(arch_as_cpus(as) == all);      /* lazy: every CPU kept it */
	/* Put another page in its place: each CPU must see the new one, not a stale entry. */
	void *old = arch_as_unmap(as, TEST_VA), *page = page_alloc();
	ST_ASSERT(old != NULL && page != NULL);
	if (old == NULL || page == NULL) {
		thread_bind(-1);
		return;
	}
	memset(page, 0x22, PAGE_SIZE);
	ST_ASSERT(arch_as_map(as, TEST_VA, page, ARCH_PROT_WRITE));
	uint64_t flags = arch_irq_save();
	uint64_t sent = curcpu()->cpu_stats.sysinfo.xcalls;
	arch_as_flush(as, TEST_VA, TEST_VA + PAGE_SIZE);
	ST_ASSERT(curcpu()->cpu_stats.sysinfo.xcalls - sent == (uint64_t)ncpus - 1);   /* one per other CPU */
	arch_irq_restore(flags);
	arch_as_page_put(old);
	for (int c = ncpus - 1; c >= 0; c--)
		ST_ASSERT(load_and_read(as, c) == 0x22);
	/* Destroying it: no CPU may keep the freed tables loaded. */
	thread_bind(0);
	flags = arch_irq_save();
	arch_as_activate(NULL);
	arch_irq_restore(flags);
	uint64_t cpus_before = arch_as_cpus(as);
	ST_ASSERT(ncpus == 1 || cpus_before == (all & ~1UL));
	arch_as_destroy(as);
	thread_bind(-1);
}

/* The teardown seen from each CPU: after destroy, none has the space loaded (a pointer compared, not read). */
SELFTEST(vm_space_destroy_leaves_no_cpu_loaded)
{
	struct arch_as *as = test_space(0x33);

	ST_ASSERT(as != NULL);
	if (as == NULL)
		return;
	for (int c = ncpus - 1; c >= 0; c--)
		ST_ASSERT(load_and_read(as, c) == 0x33);
	thread_bind(ncpus - 1);                  /* destroy on a CPU that has it loaded itself */
	ST_ASSERT(__builtin_popcountll(arch_as_cpus(as)) == ncpus);
	uint64_t sent = 0, after = 0;
	for (int c = 0; c < ncpus; c++)
		sent += cpus[c].cpu_stats.sysinfo.xcalls;
	arch_as_destroy(as);
	for (int c = 0; c < ncpus; c++)
		after += cpus[c].cpu_stats.sysinfo.xcalls;
	ST_ASSERT(after - sent >= (uint64_t)ncpus - 1);   /* the others were told to leave it */
	for (int c = 0; c < ncpus; c++) {
		loaded_on[c] = as;
		xcall(c, note_loaded, NULL);
		ST_ASSERT(loaded_on[c] != as);
	}
	thread_bind(-1);
}

SELFTEST(vm_fork_shares_and_private_copies_count_exactly)
{
	uint64_t pages0 = arch_user_pages();
	struct arch_as *a = test_space(0x55);

	ST_ASSERT(a != NULL);
	if (a == NULL)
		return;
	uint64_t pages1 = arch_user_pages();
	struct arch_as *b = arch_as_copy(a);
	ST_ASSERT(b != NULL);
	if (b == NULL) {
		arch_as_destroy(a);
		return;
	}
	unsigned char *pa = arch_as_page(a, TEST_VA), *pb = arch_as_page(b, TEST_VA);
	ST_ASSERT(pa == pb);                     /* shared until one writes */
	uint64_t tables = arch_as_pages(b) - 1;     /* the machine's: 4 on x86_64, 3 on sparc64 */
	ST_ASSERT(arch_user_pages() - pages1 == tables);   /* b's tables, not the page */
	unsigned char *mine = arch_as_page_private(b, TEST_VA + 12);
	ST_ASSERT(mine != NULL && mine != pa && mine == arch_as_page(b, TEST_VA));
	ST_ASSERT(mine != NULL && mine[0] == 0x55 && mine[PAGE_SIZE - 1] == 0x55);
	if (mine != NULL)
		mine[0] = 0xcc;                      /* a breakpoint: a's page does not change */
	ST_ASSERT(pa[0] == 0x55);
	ST_ASSERT(arch_as_page_private(b, TEST_VA) == mine);   /* already private: the same page */
	ST_ASSERT(arch_as_page_private(a, TEST_VA) == pa);     /* a holds the only reference now */
	ST_ASSERT(arch_as_page_private(a, TEST_VA + PAGE_SIZE) == NULL);
	ST_ASSERT(arch_user_pages() - pages1 == tables + 1);
	arch_as_destroy(a);
	arch_as_destroy(b);
	ST_ASSERT(arch_user_pages() == pages0);
}
