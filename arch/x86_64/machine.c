/*
 * machine.c - small machine services: interrupt state, power, new thread
 * stacks, and provoked faults for the crash command.
 *
 * Power-off goes through QEMU's isa-debug-exit device at port 0xf4: writing
 * v makes QEMU exit with status (v << 1) | 1.  A clean stop writes 0x10 + s
 * (exit 33 + 2s); a crash writes 1 (exit 3).  A triple fault makes QEMU exit
 * 0, so 0 never counts as success.  Without the device (a real machine or a
 * plain QEMU), the CPU halts with interrupts off.
 *
 * Tests: self-tests safe_read_survives_faults, mem_probe_classifies;
 *        tests/e2e/test_boot.py
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "kernel/klib.h"

#define DEBUG_EXIT_PORT 0xf4

uint64_t arch_irq_save(void)
{
	uint64_t f = read_rflags();

	__asm__ volatile("cli" ::: "memory");
	return f & RFLAGS_IF;
}

void arch_irq_restore(uint64_t flags)
{
	if (flags & RFLAGS_IF)
		__asm__ volatile("sti" ::: "memory");
}

void arch_irq_enable(void) { __asm__ volatile("sti" ::: "memory"); }
void arch_irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }
bool arch_irq_enabled(void) { return (read_rflags() & RFLAGS_IF) != 0; }
void arch_cpu_relax(void) { __asm__ volatile("pause"); }

void arch_wait_for_interrupt(void)
{
	__asm__ volatile("sti; hlt" ::: "memory");
}

static void NORETURN halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

void arch_poweroff(int status)
{
	uint32_t v = status < 0 ? 1 : 0x10 + (uint32_t)MIN(status, 111);

	__asm__ volatile("cli");
	outl(DEBUG_EXIT_PORT, v);
	/* No isa-debug-exit: try ACPI S5 on QEMU's PIIX4/ICH9 ports, then halt. */
	outw(0x604, 0x2000);
	outw(0xb004, 0x2000);
	halt_forever();
}

void arch_reboot(void)
{
	__asm__ volatile("cli");
	for (int i = 0; i < 100000 && (inb(0x64) & 2); i++)
		;
	outb(0x64, 0xfe);                       /* keyboard controller reset */
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) none = { 0, 0 };
	__asm__ volatile("lidt %0; int3" :: "m"(none));   /* triple fault */
	halt_forever();
}

/* The first frame of a new thread, as arch_switch() pops it. */
struct switch_frame {
	uint64_t r15, r14, r13, r12, rbx, rbp, ret;
};

uint64_t arch_thread_stack_init(void *stack_top, void *thread)
{
	struct switch_frame *f = (struct switch_frame *)((uint64_t)stack_top - 64) - 1;

	memset(f, 0, sizeof(*f));
	f->r12 = (uint64_t)thread;
	f->ret = (uint64_t)thread_trampoline;
	return (uint64_t)f;
}

void arch_context_switch(uint64_t *save_sp, uint64_t new_sp)
{
	arch_switch(save_sp, new_sp);
}

static volatile uint64_t fault_zero;

void arch_fault_test(enum arch_fault kind)
{
	switch (kind) {
	case FAULT_PAGE:
		*(volatile uint64_t *)0xdeadbeef000UL = 1;
		break;
	case FAULT_DIVIDE: {
		uint64_t q;
		__asm__ volatile("xor %%edx, %%edx; divq %1" : "=a"(q) : "r"(fault_zero), "a"(1UL) : "rdx");
		(void)q;
		break;
	}
	case FAULT_UD:
		__asm__ volatile("ud2");
		break;
	case FAULT_GP:
		(void)*(volatile uint64_t *)0x8000000000000000UL;
		break;
	case FAULT_BREAKPOINT:
		__asm__ volatile("int3");
		break;
	case FAULT_STACK:
		arch_fault_test(FAULT_STACK);       /* unbounded recursion: double fault */
		break;
	}
}
