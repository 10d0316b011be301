/*
 * user.c - sparc64: user processes, not yet.
 *
 * Sonde has no user mode on sparc64: every address-space operation fails
 * (arch_as_create returns NULL, so exec and fork report ENOMEM), copies to
 * and from user space fail, and arch_user_probe says nothing is mapped.
 * The shell's built-in commands and the in-kernel workloads (churn, spin)
 * run as kernel threads and need none of this.
 *
 * Tests: make sparc64-check
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"

struct arch_as *arch_as_create(void) { return NULL; }
void arch_as_destroy(struct arch_as *as) { (void)as; }
bool arch_as_map(struct arch_as *as, uint64_t va, void *page, int prot)
{
	(void)as; (void)va; (void)page; (void)prot;
	return false;
}
void *arch_as_unmap(struct arch_as *as, uint64_t va) { (void)as; (void)va; return NULL; }
void *arch_as_page(struct arch_as *as, uint64_t va) { (void)as; (void)va; return NULL; }
uint64_t arch_as_pages(struct arch_as *as) { (void)as; return 0; }
struct arch_as *arch_as_copy(struct arch_as *as) { (void)as; return NULL; }
uint64_t arch_as_next(struct arch_as *as, uint64_t va, uint64_t hi) { (void)as; (void)va; return hi; }
uint64_t arch_user_pages(void) { return 0; }
void arch_as_activate(struct arch_as *as) { (void)as; }

int arch_copyin(void *dst, uint64_t usrc, size_t len) { (void)dst; (void)usrc; (void)len; return -1; }
int arch_copyout(uint64_t udst, const void *src, size_t len) { (void)udst; (void)src; (void)len; return -1; }
long arch_copyinstr(char *dst, uint64_t usrc, size_t max) { (void)dst; (void)usrc; (void)max; return -1; }
bool arch_user_probe(uint64_t va, size_t len) { (void)va; (void)len; return false; }
int arch_user_store(uint64_t udst, const void *src, size_t len) { (void)udst; (void)src; (void)len; return -1; }

void arch_user_enter(uint64_t pc, uint64_t sp)
{
	(void)pc; (void)sp;
	panic("sparc64: no user mode");
}

void *arch_fpu_alloc(void) { return kzalloc(8); }
void arch_fpu_free(void *area) { kfree(area); }
void *arch_fpu_copy(void) { return kzalloc(8); }
void arch_fpu_reset(void *area) { (void)area; }
void *arch_user_frame_copy(void) { return NULL; }

void arch_user_resume(void *frame, uint64_t rv)
{
	(void)frame; (void)rv;
	panic("sparc64: no user mode");
}
