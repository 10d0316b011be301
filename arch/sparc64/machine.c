/*
 * machine.c - sparc64: the processor's small services behind arch.h.
 *
 * One CPU (QEMU's sun4u has one): cpus[0], curcpu() is it.  Interrupts are
 * PSTATE.IE (the processor interrupt level stays 0).  The clock is %tick,
 * which QEMU counts at 100 MHz; the timer behind cyclics is %tick_cmpr,
 * whose match raises interrupt level 14 (trap.c).  Power-off writes the
 * power register of the ISA bridge; QEMU then exits with status 0 whatever
 * the outcome, so the console carries the outcome first, as a line
 * "sonde-exit: N" (QEMU's x86 status for it: 33 + 2 * command status, or 3
 * for a crash), which tools/sparc64_run.sh turns into its own exit status.
 * Floating point is on in the kernel (PSTATE.PEF, FPRS.FEF): D's float
 * formatting uses it; its registers are not saved per thread.
 *
 * Tests: make sparc64-check (every self-test on sparc64)
 */
#include "arch/arch.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"

#define PSTATE_IE   0x2
#define TICK_HZ     100000000UL

struct cpu cpus[MAX_CPUS];
int ncpus = 1;

struct cpu *curcpu(void) { return &cpus[0]; }
int arch_cpu_id(void) { return 0; }
struct thread *arch_curthread(void) { return cpus[0].cpu_thread; }   /* one CPU: no migration */

uint64_t arch_irq_save(void)
{
	uint64_t ps = rdpr(pstate);

	wrpr(pstate, ps & ~PSTATE_IE);
	return ps & PSTATE_IE;
}

void arch_irq_restore(uint64_t flags)
{
	if (flags & PSTATE_IE)
		wrpr(pstate, rdpr(pstate) | PSTATE_IE);
}

void arch_irq_enable(void) { wrpr(pstate, rdpr(pstate) | PSTATE_IE); }
void arch_irq_disable(void) { wrpr(pstate, rdpr(pstate) & ~PSTATE_IE); }
bool arch_irq_enabled(void) { return (rdpr(pstate) & PSTATE_IE) != 0; }
void arch_cpu_relax(void) { __asm__ volatile("" ::: "memory"); }

/* The idle loop's halt: QEMU's sun4u has no halt, so poll for the interrupt with it enabled. */
void arch_wait_for_interrupt(void)
{
	arch_irq_enable();
	__asm__ volatile("nop; nop; nop; nop" ::: "memory");
}

uint64_t arch_cycles(void)
{
	uint64_t t;

	__asm__ volatile("rd %%tick, %0" : "=r"(t));
	return t & ~(1UL << 63);
}

uint64_t arch_time_ns(void) { return arch_cycles() * (1000000000UL / TICK_HZ); }

/* arch_timer_oneshot: %tick_cmpr = now + delta; the match interrupts at level 14. */
void arch_timer_oneshot(uint64_t delta_ns)
{
	uint64_t ticks = delta_ns / (1000000000UL / TICK_HZ);

	if (ticks < 1000)
		ticks = 1000;                   /* 10 us: never already past */
	uint64_t when = arch_cycles() + ticks;
	__asm__ volatile("wr %0, 0, %%asr23" :: "r"(when) : "memory");
}

void arch_poweroff(int status)
{
	arch_irq_disable();
	console_panic_mode();
	kprintf("\nsonde-exit: %d\n", status >= 0 ? 33 + 2 * MIN(status, 111) : 3);   /* as x86's isa-debug-exit */
	phys_out32(SUN4U_POWER, 0x01000000);
	for (;;)
		;
}

void arch_reboot(void) { arch_poweroff(0); }

void arch_cpu_init(void)
{
	struct cpu *c = &cpus[0];

	c->cpu_self = c;
	c->cpu_id = 0;
	c->cpu_online = true;
	__asm__ volatile("wr %%g0, 4, %%fprs" ::: "memory");      /* FEF */
	sparc64_traps_init();
}

void arch_intr_init(void)
{
	__asm__ volatile("wr %%g0, -1, %%asr21" ::: "memory");     /* clear every soft interrupt */
	wrpr(pil, 0);
}

int arch_smp_start(void) { return 1; }
void arch_send_ipi(int cpu, enum arch_ipi kind) { (void)cpu; (void)kind; }

void sparc64_switch(uint64_t *save_sp, uint64_t new_sp);
extern char thread_trampoline[];

/* Two frames (switch.S): the switch frame, then the trampoline's. */
uint64_t arch_thread_stack_init(void *stack_top, void *thread)
{
	uint64_t top = ((uint64_t)stack_top - 256) & ~15UL;
	uint64_t f2 = top - 176, f1 = f2 - 176;
	uint64_t *w1 = (uint64_t *)f1, *w2 = (uint64_t *)f2;

	memset(w1, 0, 2 * 176);
	w2[0] = (uint64_t)thread;                              /* %l0 */
	w1[14] = f2 - STACK_BIAS;                              /* %i6 */
	w1[15] = (uint64_t)thread_trampoline - 8;              /* %i7: ret goes to +8 */
	return f1 - STACK_BIAS;
}

void arch_context_switch(uint64_t *save_sp, uint64_t new_sp)
{
	sparc64_switch(save_sp, new_sp);
}

static volatile uint64_t fault_zero;

/* overflow: recurse until the thread's stack runs into its guard page. */
static __attribute__((noinline)) uint64_t overflow(uint64_t n)
{
	volatile char buf[1024];

	buf[0] = (char)n;
	if (fault_zero == 0)
		return overflow(n + 1) + (uint64_t)buf[0];
	return 0;
}

void arch_fault_test(enum arch_fault kind)
{
	switch (kind) {
	case FAULT_PAGE:
		*(volatile uint64_t *)0xdeadbeef000UL = 1;
		break;
	case FAULT_DIVIDE: {
		uint64_t q, z = fault_zero;
		__asm__ volatile("udivx %1, %2, %0" : "=r"(q) : "r"(1UL), "r"(z));
		fault_zero = q;
		break;
	}
	case FAULT_UD:
	case FAULT_GP:
		__asm__ volatile("illtrap 0");
		break;
	case FAULT_STACK:
		fault_zero = 0;
		(void)overflow(0);
		break;
	case FAULT_BREAKPOINT:
		__asm__ volatile("ta 0x1");
		break;
	}
}
