/*
 * trap.c - sparc64: what a trap means, once traps.S has saved it.
 *
 * sparc64_trap() gets every trap but window spills and fills and the TLB
 * misses traps.S fills itself.  A trap from user mode goes to vm_user.c
 * (system calls, user faults, the interrupts that came in user mode); the
 * others are the kernel's: the timer (interrupt level 14), other
 * interrupt levels (cleared and counted), a probe's trap instruction
 * (ta 0x70, fbt_isa.c), and faults.  A fault at an instruction listed in
 * the exception table (arch_safe_read's load) resumes at its fix-up; any
 * other fault is fatal: registers, the faulting address and a symbolized
 * stack, then power-off with the failure status.  A fault inside a trap
 * handler (a window spill or fill that faulted: a kernel stack overflow,
 * when its page is just below the thread's stack) is reported from what
 * traps.S recorded before it moved to the panic stack (nested_report).
 *
 * Stack walks go through the register windows: flushw puts every window in
 * its frame's save area, where a frame's caller's frame pointer is the
 * saved %i6 (slot 14) and its return address the saved %i7 (slot 15), the
 * address of the call instruction.
 *
 * Tests: self-tests safe_read_survives_faults, s64_fbt_* under make
 *        sparc64-check; tests/e2e/test_sparc64_crash.py (crash stack)
 */
#include "arch/arch.h"
#include "arch/sparc64/fbt_isa.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"
#include "kernel/thread.h"

#define TT_IRQ_LEVEL1   0x41
#define TT_IRQ_LEVEL14  0x4e
#define TT_IRQ_LEVEL15  0x4f
#define TT_VECTOR       0x60
#define TT_PROBE        (0x100 + 0x70)

void timer_interrupt(void);                /* kernel/cyclic.c */
void sparc64_trap_table_load(void);
struct trap_frame *sparc64_intr_frame;     /* the interrupted state, for profile */
static uint64_t probe_traps;               /* ta 0x70 taken (sdt; fbt takes none): benchmarks */

uint64_t prov_isa_trap_count(void)
{
	return probe_traps;                /* one CPU: no other writer */
}

struct extable_entry {
	uint64_t ex_insn;
	uint64_t ex_fixup;
};
extern const struct extable_entry __start_extable[], __stop_extable[];

void sparc64_traps_init(void)
{
	wrpr(cleanwin, 7);
	wrpr(wstate, 0);                            /* kernel windows: spill_0_normal (traps.S) */
	sparc64_mmu_init();
}

static bool extable_fixup(struct trap_frame *tf)
{
	for (const struct extable_entry *e = __start_extable; e < __stop_extable; e++) {
		if (e->ex_insn == tf->tf_tpc) {
			tf->tf_tpc = e->ex_fixup;
			tf->tf_tnpc = e->ex_fixup + 4;
			return true;
		}
	}
	return false;
}

static bool frame_ok(uint64_t fp)
{
	uint64_t p = fp + STACK_BIAS;

	return fp != 0 && (p & 7) == 0 && mem_probe(p, 128);
}

/* stack_from: return addresses up from frame fp (a biased %fp); flushw first. */
static int stack_from(uint64_t fp, uint64_t *pcs, int max)
{
	int n = 0;

	__asm__ volatile("flushw" ::: "memory");
	while (n < max && frame_ok(fp)) {
		const uint64_t *w = (const uint64_t *)(fp + STACK_BIAS);
		if (w[15] == 0)
			break;
		pcs[n++] = w[15];
		fp = w[14];
	}
	return n;
}

/* arch_frame_step (arch.h): a window's save area holds %i6 (the caller's %sp) and %i7 (the call site). */
uint64_t arch_frame_step(uint64_t *fp)
{
	uint64_t f = *fp;

	__asm__ volatile("flushw" ::: "memory");
	if (!frame_ok(f))
		return 0;
	const uint64_t *w = (const uint64_t *)(f + STACK_BIAS);
	*fp = w[14];
	return w[15];
}

uint64_t arch_frame_make(uint64_t area[16], uint64_t ret)
{
	area[14] = 0;                /* %i6: no caller's frame */
	area[15] = ret;              /* %i7 */
	return (uint64_t)area - STACK_BIAS;
}

int arch_backtrace(uint64_t *pcs, int max, int skip)
{
	uint64_t tmp[64];
	int n = stack_from(arch_frame_here(), tmp, max + skip < 64 ? max + skip : 64);
	int k = 0;

	for (int i = skip; i < n && k < max; i++)
		pcs[k++] = tmp[i];
	return k;
}

static const char *trap_name(uint64_t tt)
{
	switch (tt) {
	case 0x08: return "instruction access exception";
	case 0x10: return "illegal instruction";
	case 0x28: return "division by zero";
	case 0x30: return "data access exception";
	case 0x34: return "memory address not aligned";
	case 0x64: return "instruction access MMU miss (no translation)";
	case 0x68: return "data access MMU miss (no translation)";
	case 0x6c: return "data access protection";
	default:   return tt >= 0x100 ? "trap instruction" : "unexpected trap";
	}
}

/* backtrace_print: pcs, a run of the same return address (a recursion) as one line. */
static void backtrace_print(const uint64_t *pcs, int n)
{
	char buf[96];

	for (int i = 0; i < n;) {
		int k = 1;
		while (i + k < n && pcs[i + k] == pcs[i])
			k++;
		if (k > 1)
			kprintf("  %s (%d frames)\n", ksym_format(pcs[i], buf, sizeof(buf)), k);
		else
			kprintf("  %s\n", ksym_format(pcs[i], buf, sizeof(buf)));
		i += k;
	}
}

/* The running thread's kernel stack, [*lo, *hi). */
static void thread_stack(const struct thread *t, uint64_t *lo, uint64_t *hi)
{
	extern char boot_stack[], boot_stack_top[];

	*lo = *hi = 0;
	if (t == NULL || t->t_stack == NULL)
		return;
	*lo = (uint64_t)t->t_stack;
	*hi = t->t_stack == boot_stack ? (uint64_t)boot_stack_top : *lo + THREAD_STACK_SIZE;
}

/*
 * chain_ok: does a whole chain of frames start at fp: each save area in
 * [lo, hi), each caller's frame above the last, each return address in a
 * kernel function, until the thread's first frame (a zero %i6 or %i7) or
 * the stack's top?
 */
static bool chain_ok(uint64_t fp, uint64_t lo, uint64_t hi)
{
	struct ksym ks;

	for (int depth = 0; depth < 1024; depth++) {
		uint64_t p = fp + STACK_BIAS;
		if (p < lo || p + 128 > hi || (p & 15) != 0)
			return false;
		const uint64_t *w = (const uint64_t *)p;
		if (w[14] == 0 || w[15] == 0 || w[14] + STACK_BIAS >= hi)
			return depth >= 2;
		if (!ksym_lookup_addr(w[15], &ks) || !ks.ks_func || w[14] + STACK_BIAS <= p)
			return false;
		fp = w[14];
	}
	return false;
}

/*
 * stack_scan: the lowest frame on the stack [lo, hi) from which chain_ok
 * holds, or 0: after an overflow, where the windows saved before it begin
 * (the newer ones were never written to the stack).
 */
static uint64_t stack_scan(uint64_t lo, uint64_t hi)
{
	for (uint64_t p = ALIGN_UP(lo, 16); p + 128 <= hi; p += 16)
		if (chain_ok(p - STACK_BIAS, lo, hi))
			return p - STACK_BIAS;
	return 0;
}

/*
 * nested_report: the fatal report of a trap inside a trap handler
 * (traps.S's trap_fatal_nested, which recorded it in mp_nested and went on
 * on the panic stack).  A window spill or fill whose page is just below
 * the thread's stack is a kernel stack overflow: the stack ran into the
 * unmapped page under it (the trap below is then the spill, or the fault
 * of a store into a frame there, and this one trap_generic's own frame
 * there).  The windows not yet on the stack were dropped: the backtrace is
 * where the thread was, the faulting window's %i7, then the frames already
 * on the stack (stack_scan), whose repeats print as one line.  Never
 * returns.
 */
static void nested_report(struct thread *t)
{
	const struct sparc64_nested *mn = &sparc64_mmu_page.mp_nested;
	uint64_t lo, hi, pcs[64];
	bool spill = mn->mn_tt_below >= 0x80 && mn->mn_tt_below < 0xc0;
	bool fill = mn->mn_tt_below >= 0xc0 && mn->mn_tt_below < 0x100;
	char buf[96];
	int n = 0;

	thread_stack(t, &lo, &hi);
	bool overflow = lo != 0 && mn->mn_addr < lo && mn->mn_addr + 2 * PAGE_SIZE >= lo;
	kprintf("\nfatal trap 0x%lx: %s\n", mn->mn_tt, overflow ? "kernel stack overflow" :
	        spill ? "a window spill faulted" : fill ? "a window fill faulted" :
	        "a trap inside a trap handler");
	kprintf("  %s at 0x%lx, inside trap 0x%lx (%s)\n", trap_name(mn->mn_tt), mn->mn_addr,
	        mn->mn_tt_below, spill ? "a window spill" : fill ? "a window fill" : trap_name(mn->mn_tt_below));
	kprintf("  at %s, thread %lu (%s)\n", ksym_format(mn->mn_tpc_below, buf, sizeof(buf)),
	        t ? t->t_tid : 0UL, t ? t->t_name : "?");
	if (lo != 0)
		kprintf("  kernel stack [0x%lx, 0x%lx)\n", lo, hi);
	pcs[n++] = mn->mn_tpc_below;
	if (mn->mn_ret != 0)
		pcs[n++] = mn->mn_ret;
	if (overflow) {
		uint64_t fp = stack_scan(lo, hi);
		kprintf("  the windows not yet on the stack are lost; its frames from 0x%lx on are not\n",
		        fp ? fp + STACK_BIAS : 0);
		n += stack_from(fp, pcs + n, 64 - n);
	} else {
		n += stack_from(mn->mn_fp, pcs + n, 64 - n);
	}
	kprintf("backtrace:\n");
	backtrace_print(pcs, n);
	arch_poweroff(POWEROFF_FAILURE);
}

static void fault_report(struct trap_frame *tf)
{
	struct thread *t = curcpu()->cpu_thread;
	uint64_t pcs[16];
	char buf[96];

	console_panic_mode();
	if (sparc64_mmu_page.mp_nested.mn_tt != 0)
		nested_report(t);
	kprintf("\nfatal trap 0x%lx: %s\n", tf->tf_tt, trap_name(tf->tf_tt));
	kprintf("  at %s, thread %lu (%s)\n", ksym_format(tf->tf_tpc, buf, sizeof(buf)),
	        t ? t->t_tid : 0UL, t ? t->t_name : "?");
	if (tf->tf_tt == 0x30 || tf->tf_tt == 0x34 || tf->tf_tt == 0x68 || tf->tf_tt == 0x6c)
		kprintf("  faulting address 0x%lx%s\n", tf->tf_sfar,
		        tf->tf_tt >= 0x68 ? " (its 8 KiB page: an MMU miss gives no more)" : "");
	kprintf("  tstate 0x%lx tnpc 0x%lx\n", tf->tf_tstate, tf->tf_tnpc);
	for (int i = 0; i < 8; i += 2)
		kprintf("  %%g%d 0x%016lx  %%g%d 0x%016lx  %%o%d 0x%016lx  %%o%d 0x%016lx\n",
		        i, tf->tf_g[i], i + 1, tf->tf_g[i + 1], i, tf->tf_o[i], i + 1, tf->tf_o[i + 1]);
	kprintf("backtrace:\n");
	int n = stack_from(tf->tf_o[6], pcs, 16);     /* from the trapped window's frame */
	backtrace_print(pcs, n);
	arch_poweroff(POWEROFF_FAILURE);
}

void sparc64_user_trap(struct trap_frame *tf);     /* vm_user.c */
bool sparc64_kernel_cow(struct trap_frame *tf);
void sparc64_user_fault_count(uint64_t tt);        /* vm_user.c */

void sparc64_irq_dispatch(struct trap_frame *tf)
{
	struct cpu *c = curcpu();
	struct trap_frame *prev = sparc64_intr_frame;

	sparc64_intr_frame = tf;
	c->cpu_intr_depth++;
	CPU_STAT_ADD(c, sysinfo, intr, 1);
	if (tf->tf_tt == TT_IRQ_LEVEL14) {
		__asm__ volatile("wr %%g0, 1, %%asr21" ::: "memory");   /* clear TICK_INT */
		sparc64_uart_poll();
		timer_interrupt();
	} else {
		uint64_t bit = 1UL << (tf->tf_tt - TT_IRQ_LEVEL1 + 1);
		__asm__ volatile("wr %0, 0, %%asr21" :: "r"(bit) : "memory");
	}
	c->cpu_intr_depth--;
	sparc64_intr_frame = prev;
	if (c->cpu_need_resched && c->cpu_intr_depth == 0)
		sched_preempt_check();
}

void sparc64_trap(struct trap_frame *tf)
{
	if (!(tf->tf_tstate & 0x400)) {             /* TSTATE.PRIV clear: from user mode */
		sparc64_user_trap(tf);
		return;
	}
	if (tf->tf_tt == TT_PROBE) {
		probe_traps++;
		if (sparc64_probe_trap(tf))
			return;
	}
	if (tf->tf_tt >= TT_IRQ_LEVEL1 && tf->tf_tt <= TT_IRQ_LEVEL15) {
		sparc64_irq_dispatch(tf);
		return;
	}
	if (tf->tf_tt == TT_VECTOR) {
		uint64_t v;
		__asm__ volatile("ldxa [%%g0] 0x49, %0" : "=r"(v));     /* interrupt receive: drop it */
		__asm__ volatile("stxa %%g0, [%%g0] 0x49; membar #Sync" ::: "memory");
		(void)v;
		return;
	}
	SYSINFO_ADD(trap, 1);                       /* a processor trap, not a probe's or an interrupt */
	if (sparc64_kernel_cow(tf))                 /* copyout to a page fork shares */
		return;
	if (tf->tf_sfar < ARCH_USER_TOP && (tf->tf_tt == 0x68 || tf->tf_tt == 0x6c))
		sparc64_user_fault_count(tf->tf_tt);    /* copyin/copyout met a bad user address */
	if (extable_fixup(tf))
		return;
	fault_report(tf);
}
