/*
 * kernel_pmem_test.c - the physical page allocator's bookkeeping (kernel/pmem.c):
 * which parts of a memory map become free pages.  The kernel image is placed
 * with --defsym at [1 MiB, 4 MiB) physical (see mk/check.mk).
 */
#include "tests/unit/kfakes.h"
#include "kernel/boot.h"
#include "kernel/mem.h"
#include <sys/wait.h>
#include <unistd.h>

struct boot_info boot_info;

uint64_t virt_to_phys(const void *va) { return (uint64_t)va - DMAP_BASE; }

static void boot_map(const struct boot_mem *m, int n)
{
	memset(&boot_info, 0, sizeof(boot_info));
	for (int i = 0; i < n; i++)
		boot_info.bi_mem[i] = m[i];
	boot_info.bi_nmem = n;
}

/* pmem keeps its state in statics: each test runs in a fresh process (fork in main). */
static void test_holes_excluded(void **state)
{
	struct boot_mem m[] = {
		{ 0, 0x9fc00, BOOT_MEM_USABLE },                       /* low memory: never used */
		{ 0x100000, 0x7f00000, BOOT_MEM_USABLE },              /* 1 MiB .. 128 MiB */
		{ 0xfffc0000, 0x40000, BOOT_MEM_RESERVED },
	};
	struct pmem_stats st;

	(void)state;
	boot_map(m, 3);
	boot_info.bi_nmod = 1;
	boot_info.bi_mod[0] = (struct boot_module){ 0x500000, 0x501800, "initrd" };
	pmem_init();
	pmem_stats(&st);
	assert_int_equal(st.ps_total, 0x9fc00 + 0x7f00000);
	assert_int_equal(st.ps_kernel, 0x300000);
	/* free = 1..128 MiB less the kernel (3 MiB) less the module (2 pages) */
	assert_int_equal(st.ps_free, 0x7f00000 - 0x300000 - 2 * 4096);
	uint64_t first = pmem_take();
	assert_true(first == 0x400000);                             /* right after the kernel */
	assert_true(pmem_take() == 0x401000);
	for (uint64_t pa = 0x402000; pa < 0x500000; pa += 4096)
		assert_true(pmem_take() == pa);
	assert_true(pmem_take() == 0x502000);                       /* the module is skipped */
}

static void test_exhaustion(void **state)
{
	struct boot_mem m[] = { { 0x400000, 3 * 4096 + 100, BOOT_MEM_USABLE } };

	(void)state;
	boot_map(m, 1);
	pmem_init();
	assert_true(pmem_take() != 0);
	assert_true(pmem_take() != 0);
	assert_true(pmem_take() != 0);
	assert_true(pmem_take() == 0);                              /* partial page not used */
}

static void test_ram_classification(void **state)
{
	struct boot_mem m[] = {
		{ 0x100000, 0x100000, BOOT_MEM_USABLE },
		{ 0x200000, 0x1000, BOOT_MEM_ACPI },
		{ 0x300000, 0x1000, BOOT_MEM_RESERVED },
	};

	(void)state;
	boot_map(m, 3);
	assert_true(pmem_is_ram(0x100000));
	assert_true(pmem_is_ram(0x200fff));
	assert_false(pmem_is_ram(0x300000));
	assert_false(pmem_is_ram(0x201000));
	assert_true(pmem_ram_end() == 0x201000);
}

static void test_no_memory_panics(void **state)
{
	struct boot_mem m[] = { { 0x100000, 0x100000, BOOT_MEM_USABLE } };  /* all kernel */

	(void)state;
	boot_map(m, 1);
	expect_assert_failure(pmem_init());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holes_excluded),
		cmocka_unit_test(test_exhaustion),
		cmocka_unit_test(test_ram_classification),
		cmocka_unit_test(test_no_memory_panics),
	};
	/* Each test needs a fresh allocator: run them one per child process. */
	int failed = 0;
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0)
			_exit(_cmocka_run_group_tests(tests[i].name, &tests[i], 1, NULL, NULL));
		int status;
		waitpid(pid, &status, 0);
		failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	return failed;
}
