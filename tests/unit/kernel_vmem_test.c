/*
 * kernel_vmem_test.c - the address-space arena (kernel/vmem.c) on the host:
 * instant fit, splitting, coalescing on free in any order, spans that never
 * merge, tags from a page supplier that runs dry, and a random churn checked
 * against a model of which quanta are taken.
 */
#include "tests/unit/kfakes.h"
#include "kernel/vmem.h"

#define Q 4096UL

static int tag_pages_left = 1000;

static void *tag_page(void)
{
	if (tag_pages_left == 0)
		return NULL;
	tag_pages_left--;
	return aligned_alloc(4096, VMEM_TAG_PAGE);      /* leaked: the arena keeps tag pages */
}

/* arena: vm made empty, then given [base, base + size) (the arena holds pointers to itself). */
static void arena(struct vmem *vm, uint64_t base, uint64_t size)
{
	tag_pages_left = 1000;
	vmem_init(vm, "test", Q, tag_page);
	assert_true(vmem_add(vm, base, size));
}

static void test_alloc_rounds_and_splits(void **state)
{
	(void)state;
	struct vmem vm;
	arena(&vm, 0x100000, 64 * Q);
	uint64_t a = vmem_alloc(&vm, 1);                  /* one quantum */
	uint64_t b = vmem_alloc(&vm, 3 * Q);
	assert_int_equal(a, 0x100000);
	assert_int_equal(b, 0x100000 + Q);                /* cut from the same free segment */
	assert_int_equal(vm.vm_stats.vst_inuse, 4 * Q);
	assert_int_equal(vm.vm_stats.vst_segs, 3);        /* a, b, the free rest */
	assert_int_equal(vmem_largest_free(&vm), 60 * Q);
	assert_int_equal(vmem_alloc(&vm, 0), 0);
}

static void test_exhaustion_and_best_effort(void **state)
{
	(void)state;
	struct vmem vm;
	arena(&vm, Q, 5 * Q);              /* 5 quanta: list 2 holds [4Q, 8Q) */
	uint64_t a = vmem_alloc(&vm, 5 * Q);              /* no list of segments all >= 5Q: search */
	assert_int_equal(a, Q);
	assert_int_equal(vmem_alloc(&vm, Q), 0);
	assert_int_equal(vm.vm_stats.vst_failures, 1);
	assert_true(vmem_free(&vm, a, 5 * Q));
	assert_int_equal(vmem_largest_free(&vm), 5 * Q);
}

/* Free three neighbours in each of the six orders: one free segment again each time. */
static void test_coalesce_every_order(void **state)
{
	static const int orders[6][3] = { {0,1,2}, {0,2,1}, {1,0,2}, {1,2,0}, {2,0,1}, {2,1,0} };

	(void)state;
	for (int o = 0; o < 6; o++) {
		struct vmem vm;
	arena(&vm, 0x200000, 3 * Q);
		uint64_t p[3];
		for (int i = 0; i < 3; i++)
			p[i] = vmem_alloc(&vm, Q);
		assert_int_equal(vmem_alloc(&vm, Q), 0);
		for (int i = 0; i < 3; i++)
			assert_true(vmem_free(&vm, p[orders[o][i]], Q));
		assert_int_equal(vm.vm_stats.vst_segs, 1);
		assert_int_equal(vm.vm_stats.vst_inuse, 0);
		assert_int_equal(vmem_largest_free(&vm), 3 * Q);
		assert_int_equal(vmem_alloc(&vm, 3 * Q), 0x200000);   /* the whole span again */
	}
}

static void test_spans_do_not_merge(void **state)
{
	(void)state;
	struct vmem vm;
	arena(&vm, 0x10000000, 2 * Q);
	assert_true(vmem_add(&vm, 0x10000000 + 2 * Q, 2 * Q));   /* adjacent, but its own span */
	assert_true(vmem_add(&vm, 0x08000000, 2 * Q));           /* below: kept in address order */
	assert_int_equal(vm.vm_stats.vst_total, 6 * Q);
	assert_int_equal(vmem_largest_free(&vm), 2 * Q);
	assert_int_equal(vmem_alloc(&vm, 3 * Q), 0);             /* no segment crosses spans */
	assert_true(vm.vm_seg0.vs_anext->vs_start == 0x08000000);
}

static void test_free_checks_its_argument(void **state)
{
	(void)state;
	struct vmem vm;
	arena(&vm, 0x100000, 8 * Q);
	uint64_t a = vmem_alloc(&vm, 2 * Q);
	assert_false(vmem_free(&vm, a + Q, Q));                  /* not a start */
	assert_false(vmem_free(&vm, a, Q));                      /* not its size */
	assert_true(vmem_free(&vm, a, 2 * Q));
	assert_false(vmem_free(&vm, a, 2 * Q));                  /* twice */
	assert_int_equal(vm.vm_stats.vst_frees, 1);
}

static void test_tags_run_dry_cleanly(void **state)
{
	(void)state;
	struct vmem vm;
	arena(&vm, Q, 1024 * Q);
	size_t per_page = VMEM_TAG_PAGE / sizeof(struct vmem_seg);
	tag_pages_left = 0;
	uint64_t n = 0;
	while (vmem_alloc(&vm, Q) != 0)
		n++;
	assert_int_equal(n, per_page - 2);                       /* the first page's tags less the span's two */
	uint64_t inuse = vm.vm_stats.vst_inuse;
	tag_pages_left = 1;
	assert_int_not_equal(vmem_alloc(&vm, Q), 0);             /* a new page: works again */
	assert_int_equal(vm.vm_stats.vst_inuse, inuse + Q);
}

/* Random allocations and frees against a bitmap of taken quanta; all back at the end. */
static void test_random_churn_matches_model(void **state)
{
	enum { NQ = 512, NLIVE = 64 };
	static uint8_t taken[NQ];
	uint64_t live[NLIVE] = { 0 }, lsize[NLIVE] = { 0 };
	uint64_t base = 0x40000000;
	unsigned seed = 12345;

	(void)state;
	memset(taken, 0, sizeof(taken));
	struct vmem vm;
	arena(&vm, base, NQ * Q);
	for (int round = 0; round < 20000; round++) {
		seed = seed * 1103515245 + 12345;
		int i = (seed >> 8) % NLIVE;
		if (live[i] != 0) {
			assert_true(vmem_free(&vm, live[i], lsize[i]));
			for (uint64_t q = (live[i] - base) / Q; q < (live[i] - base + lsize[i]) / Q; q++)
				taken[q] = 0;
			live[i] = 0;
			continue;
		}
		uint64_t size = (1 + (seed >> 16) % 24) * Q;
		uint64_t a = vmem_alloc(&vm, size);
		if (a == 0)
			continue;
		assert_true(a >= base && a + size <= base + NQ * Q && (a - base) % Q == 0);
		for (uint64_t q = (a - base) / Q; q < (a - base + size) / Q; q++) {
			assert_int_equal(taken[q], 0);                   /* never handed out twice */
			taken[q] = 1;
		}
		live[i] = a;
		lsize[i] = size;
	}
	for (int i = 0; i < NLIVE; i++)
		if (live[i] != 0)
			assert_true(vmem_free(&vm, live[i], lsize[i]));
	assert_int_equal(vm.vm_stats.vst_inuse, 0);
	assert_int_equal(vm.vm_stats.vst_segs, 1);                 /* all merged back */
	assert_int_equal(vmem_alloc(&vm, NQ * Q), base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_rounds_and_splits),
		cmocka_unit_test(test_exhaustion_and_best_effort),
		cmocka_unit_test(test_coalesce_every_order),
		cmocka_unit_test(test_spans_do_not_merge),
		cmocka_unit_test(test_free_checks_its_argument),
		cmocka_unit_test(test_tags_run_dry_cleanly),
		cmocka_unit_test(test_random_churn_matches_model),
	};
	return cmocka_run_group_tests_name("vmem arena", tests, NULL, NULL);
}
