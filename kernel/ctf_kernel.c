/*
 * kernel/ctf_kernel.c: the kernel's own types, opened once at boot.
 *
 * The build puts the kernel's CTF dict (tools/ctf_flatten.c) in the .kctf
 * section, between __kctf_start and __kctf_end (linker.ld; empty in the
 * first link pass).  ctf_kernel_init() opens it with kernel/ctf.c, which
 * checks all of it first: a dict that fails is reported on the console
 * ("ctf: kernel types unusable: WHY") and the kernel goes on without types
 * (D then knows kernel symbols only as integers, as before CTF).
 *
 * The boot option ctf=corrupt (for the test of that promise) opens a copy
 * of the section with bytes of its type section overwritten; ctf=off opens
 * nothing.  bootstat adds the cycles the open took.
 *
 * Context: ctf_kernel_init runs once, in kmain, with the heap up and one
 * CPU; afterwards the dict is read-only and ctf_kernel() may be called
 * from any thread (not from probe context: nothing needs it there).
 *
 * Tests: tests/d/ctf; tests/e2e/test_ctf.py
 */
#include "arch/arch.h"
#include "kernel/boot.h"
#include "kernel/ctf.h"
#include "kernel/klib.h"
#include "kernel/mem.h"

extern const uint8_t __kctf_start[], __kctf_end[];

static ctf_dict_t kernel_dict;
static bool kernel_dict_ok;

const ctf_dict_t *
ctf_kernel(void)
{
	return (kernel_dict_ok ? &kernel_dict : NULL);
}

static void *
ctf_alloc(size_t n)
{
	return (kmalloc(n));
}

/* ctf=corrupt: a copy with the type section's words set to 0xff. */
static const uint8_t *
ctf_corrupt_copy(size_t len)
{
	uint8_t *c = kmalloc(len);
	if (c == NULL)
		return (NULL);
	memcpy(c, __kctf_start, len);
	for (size_t i = 64; i < len && i < 4096; i += 7)
		c[i] = 0xff;
	return (c);
}

void
ctf_kernel_init(void)
{
	char opt[16] = "";
	size_t len = (size_t)(__kctf_end - __kctf_start);
	const uint8_t *buf = __kctf_start;
	(void)cmdline_get(boot_info.bi_cmdline, "ctf", opt, sizeof (opt));
	if (len == 0 || strcmp(opt, "off") == 0)
		return;
	if (strcmp(opt, "corrupt") == 0)
		buf = ctf_corrupt_copy(len);
	uint64_t c0 = arch_cycles();
	if (ctf_open(&kernel_dict, buf, len, ctf_alloc) != 0) {
		kprintf("ctf: kernel types unusable: %s\n", kernel_dict.cd_err);
		return;
	}
	kernel_dict_ok = true;
	if (cmdline_get(boot_info.bi_cmdline, "bootstat", NULL, 0))
		kprintf("bootstat: ctf: %u types, %lu bytes, opened in %lu "
		    "cycles\n", kernel_dict.cd_ntypes, (unsigned long)len,
		    arch_cycles() - c0);
}
