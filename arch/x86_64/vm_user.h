/*
 * vm_user.h - what the x86_64 user-memory files share (private to
 * arch/x86_64): the address space, the page-table entry bits, and the
 * functions each file gives the others.
 *
 *   vm_user.c  address spaces, copies, FPU, entries from user mode
 *   vm_tlb.c   which CPUs hold which space: lazy switching, TLB shootdowns
 *              by cross-call, tables never freed while loaded anywhere
 *   vm_cow.c   page reference counts, copy-on-write fork, private copies
 */
#ifndef SONDE_X86_64_VM_USER_H
#define SONDE_X86_64_VM_USER_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/cpu.h"

#define PTE_P     0x001UL
#define PTE_W     0x002UL
#define PTE_U     0x004UL
#define PTE_COW   0x200UL            /* software bit: writable once its sharing ends (vm_cow.c) */
#define PTE_NX    (1UL << 63)
#define PTE_ADDR  0x000ffffffffff000UL

struct arch_as {
	uint64_t as_root;            /* physical address of the PML4 */
	uint64_t as_cpus;            /* atomic: bit c set while CPU c has these tables loaded (vm_tlb.c) */
};

struct trapframe;

/* vm_user.c: the leaf entry for va (tables made if create); counting the pages all spaces hold. */
uint64_t *vm_as_leaf(struct arch_as *as, uint64_t va, bool create);
void vm_user_pages_add(int64_t n);

/* vm_tlb.c: forget every CPU's hold on as before its tables are freed (may cross-call). */
void vm_tlb_release(struct arch_as *as);
/* vm_tlb.c: the space loaded on each CPU (NULL: the kernel's tables); changed by that CPU, interrupts off. */
extern struct arch_as *vm_tlb_cpu_as[MAX_CPUS];

/* vm_cpu: this CPU, inline (probe context: no call fbt could trace). */
static inline __attribute__((always_inline)) struct cpu *vm_cpu(void)
{
	struct cpu *c;

	__asm__ volatile("movq %%gs:0, %0" : "=r"(c));
	return c;
}

/* vm_tlb_loaded: the space loaded on this CPU.  Interrupts off, or probe context. */
static inline __attribute__((always_inline)) struct arch_as *vm_tlb_loaded(void)
{
	return vm_tlb_cpu_as[vm_cpu()->cpu_id];
}

/* vm_cow.c: a write fault that copy-on-write resolves (true: retry the access).  trap.c, any mode. */
bool vm_cow_fault(struct trapframe *tf);

#endif
