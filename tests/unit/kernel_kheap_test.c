/*
 * kernel_kheap_test.c - the kernel heap's small-block bookkeeping (kernel/kheap.c)
 * with pages from the host.  Large blocks need the kernel's page tables and
 * are tested in the kernel (tests/kernel/kernel_selftest.c).
 */
#include "tests/unit/kfakes.h"
#include "kernel/cpu.h"
#include "kernel/mem.h"

struct cpu cpus[MAX_CPUS];
int ncpus = 1;

static int pages_given;

void *page_alloc(void)
{
	void *p = aligned_alloc(4096, 4096);

	memset(p, 0, 4096);
	pages_given++;
	return p;
}

void page_free(void *va)
{
	free(va);
	pages_given--;
}

uint64_t pmem_take(void) { return 0; }
void pmem_give(uint64_t pa) { (void)pa; }
bool vm_map(uint64_t va, uint64_t pa, int prot) { (void)va; (void)pa; (void)prot; return false; }
void vm_unmap(uint64_t va) { (void)va; }
uint64_t vm_leaf_release(uint64_t va) { (void)va; return 0; }
uint64_t vm_heap_tables(void) { return 0; }
void arch_tlb_flush_kernel(void) {}
uint64_t virt_to_phys(const void *va) { return (uint64_t)va; }

static void test_classes_reuse(void **state)
{
	(void)state;
	void *a = kmalloc(24);                      /* class 32 */
	void *b = kmalloc(32);
	assert_non_null(a);
	assert_non_null(b);
	assert_ptr_not_equal(a, b);
	assert_true(((uintptr_t)a & 15) == 0);
	kfree(a);
	void *c = kmalloc(20);                      /* same class: reuses a */
	assert_ptr_equal(a, c);
	kfree(b);
	kfree(c);
}

static void test_stats_balance(void **state)
{
	struct kheap_stats s0, s1;

	(void)state;
	kheap_stats(&s0);
	void *p[100];
	for (int i = 0; i < 100; i++)
		p[i] = kmalloc((size_t)(i * 20 % 2048) + 1);
	kheap_stats(&s1);
	assert_int_equal(s1.hs_allocs - s0.hs_allocs, 100);
	assert_true(s1.hs_inuse > s0.hs_inuse);
	for (int i = 0; i < 100; i++)
		kfree(p[i]);
	kheap_stats(&s1);
	assert_int_equal(s1.hs_frees - s0.hs_frees, 100);
	assert_int_equal(s1.hs_inuse, s0.hs_inuse);
}

static void test_zeroed(void **state)
{
	(void)state;
	unsigned char *p = kmalloc(64);
	memset(p, 0xab, 64);
	kfree(p);
	unsigned char *q = kzalloc(64);
	for (int i = 0; i < 64; i++)
		assert_int_equal(q[i], 0);
	kfree(q);
}

static void test_double_free_panics(void **state)
{
	(void)state;
	void *p = kmalloc(100);
	kfree(p);
	expect_assert_failure(kfree(p));
}

static void test_foreign_pointer_panics(void **state)
{
	(void)state;
	char *page = aligned_alloc(4096, 4096);
	memset(page, 0, 4096);
	expect_assert_failure(kfree(page + 64));
	free(page);
}

static void test_large_fails_cleanly(void **state)
{
	struct kheap_stats s0, s1;

	(void)state;
	kheap_stats(&s0);
	assert_null(kmalloc(10000));                /* no pages on the host: NULL, counted */
	kheap_stats(&s1);
	assert_int_equal(s1.hs_failures - s0.hs_failures, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes_reuse),
		cmocka_unit_test(test_stats_balance),
		cmocka_unit_test(test_zeroed),
		cmocka_unit_test(test_double_free_panics),
		cmocka_unit_test(test_foreign_pointer_panics),
		cmocka_unit_test(test_large_fails_cleanly),
	};
	kheap_init();
	return cmocka_run_group_tests_name("kernel heap", tests, NULL, NULL);
}
