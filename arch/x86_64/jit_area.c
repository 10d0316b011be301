/*
 * jit_area.c - where the DIF JIT's code lives in the kernel (x86_64).
 *
 * A fixed area of .text.notrace (so it is executable, never writable, and
 * never instrumented by fbt), filled with int3 at build time.  Translated
 * programs are copied in with text_patch() through the patching alias, one
 * after the other; the area is text like any other and W^X holds.  Nothing
 * is freed one by one: the framework resets the whole area once no ECB
 * with native code is left and a dtrace_sync has ended their firings
 * (arch_jit_reset).  When the area is full, new DIFOs stay on the
 * interpreter (counted by the caller).
 *
 * Context: arch_jit_install runs in thread context under the framework
 * lock (enabling); the code it installs runs in probe context.
 *
 * Tests: self-tests jit_area_reused, vm_wx
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"

#define JIT_AREA_SIZE (64 * 1024)

__asm__(".pushsection .text.notrace.dif_jit, \"ax\", @progbits\n"
        ".balign 4096\n"           /* pages of its own: writing them never touches other code */
        "dif_jit_area:\n"
        ".fill 65536, 1, 0xcc\n"
        ".size dif_jit_area, 65536\n"
        ".popsection\n");
extern uint8_t dif_jit_area[JIT_AREA_SIZE];
static size_t jit_used;

/*
 * arch_jit_install: copy code into the area.  Other CPUs see it after the
 * next text_patch_sync(), which the framework makes before it publishes an
 * ECB that uses the code (one cross-call per enabling, not per DIFO).
 */
void *arch_jit_install(const uint8_t *code, size_t len)
{
	uint8_t *at = &dif_jit_area[jit_used];

	if (len == 0 || len > JIT_AREA_SIZE - jit_used)
		return NULL;
	for (size_t off = 0; off < len; off += PAGE_SIZE / 2) {   /* text_patch: at most a page */
		size_t n = MIN(len - off, (size_t)PAGE_SIZE / 2);
		if (!text_patch(at + off, code + off, n))
			return NULL;
	}
	jit_used = ALIGN_UP(jit_used + len, 16);  /* the caller syncs before the code is reachable */
	return at;
}

/* arch_jit_reset: none of the area's code can run any more (trace/jit.c): reuse it. */
void arch_jit_reset(void)
{
	jit_used = 0;
}
