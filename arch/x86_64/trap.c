/*
 * trap.c - what happens after entry.asm saved the registers.
 *
 * Device interrupts go to their handlers and may end in a preemption (the
 * scheduler's tick asks for one).  CPU exceptions in the kernel are bugs: the
 * fault printer names the exception, prints the error code, every register,
 * CR2 for page faults and a symbolized backtrace (func+0xoff), then powers
 * off with a failure status so that no crash ever looks like success.  A
 * CPU exception in user mode kills the process instead (vm_user.c).  An
 * exception at an instruction listed in the exception table (a guarded load)
 * resumes at its fix-up address instead.
 *
 * Tests: self-tests safe_read_survives_faults; tests/e2e/test_crash.py,
 *        tests/e2e/test_garbage.py
 */
#include "arch/arch.h"
#include "kernel/devinfo.h"
#include "arch/x86_64/fbt_isa.h"
#include "arch/x86_64/x86.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/pid_isa.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "kernel/xcall.h"
#include "arch/x86_64/vm_user.h"

struct extable_entry {
	uint64_t ex_insn;
	uint64_t ex_fixup;
};
extern const struct extable_entry __start_extable[], __stop_extable[];

static const char *const exc_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow", "bound range",
	"invalid opcode", "device not available", "double fault", "coprocessor overrun",
	"invalid TSS", "segment not present", "stack fault", "general protection",
	"page fault", "reserved", "x87 floating point", "alignment check",
	"machine check", "SIMD floating point", "virtualization", "control protection",
	"reserved", "reserved", "reserved", "reserved", "reserved", "reserved",
	"hypervisor injection", "VMM communication", "security", "reserved",
};

static bool extable_fixup(struct trapframe *tf)
{
	for (const struct extable_entry *e = __start_extable; e < __stop_extable; e++) {
		if (e->ex_insn == tf->tf_rip) {
			tf->tf_rip = e->ex_fixup;
			return true;
		}
	}
	return false;
}

/* extable_has: is rip a guarded user access (user_copy, user_strcpy)? */
static bool extable_has(uint64_t rip)
{
	for (const struct extable_entry *e = __start_extable; e < __stop_extable; e++)
		if (e->ex_insn == rip)
			return true;
	return false;
}

static void fault_print_regs(const struct trapframe *tf)
{
	kprintf("  rax %016lx  rbx %016lx  rcx %016lx\n", tf->tf_rax, tf->tf_rbx, tf->tf_rcx);
	kprintf("  rdx %016lx  rsi %016lx  rdi %016lx\n", tf->tf_rdx, tf->tf_rsi, tf->tf_rdi);
	kprintf("  rbp %016lx  rsp %016lx  r8  %016lx\n", tf->tf_rbp, tf->tf_rsp, tf->tf_r8);
	kprintf("  r9  %016lx  r10 %016lx  r11 %016lx\n", tf->tf_r9, tf->tf_r10, tf->tf_r11);
	kprintf("  r12 %016lx  r13 %016lx  r14 %016lx\n", tf->tf_r12, tf->tf_r13, tf->tf_r14);
	kprintf("  r15 %016lx  rip %016lx  rflags %016lx\n", tf->tf_r15, tf->tf_rip, tf->tf_rflags);
	kprintf("  cs %04lx  ss %04lx  cr2 %016lx  cr3 %016lx\n", tf->tf_cs, tf->tf_ss,
	        read_cr2(), read_cr3());
}

/* frame_ok: may rbp be followed?  (aligned, in the kernel half, mapped) */
static bool frame_ok(uint64_t rbp)
{
	return (rbp & 7) == 0 && rbp >= DMAP_BASE && mem_probe(rbp, 16);
}

int arch_backtrace(uint64_t *pcs, int max, int skip)
{
	uint64_t rbp = read_rbp();
	int n = 0;

	while (n < max && frame_ok(rbp)) {
		uint64_t ret = ((uint64_t *)rbp)[1];
		if (ret == 0)
			break;
		if (skip > 0)
			skip--;
		else
			pcs[n++] = ret;
		rbp = ((uint64_t *)rbp)[0];
	}
	return n;
}

/* backtrace_print: the frame-pointer chain starting at (rip, rbp). */
void backtrace_print(uint64_t rip, uint64_t rbp)
{
	char buf[96];

	kprintf("backtrace:\n  %s\n", ksym_format(rip, buf, sizeof(buf)));
	for (int depth = 0; depth < 32 && rbp != 0; depth++) {
		if (!frame_ok(rbp))
			break;
		uint64_t ret = ((uint64_t *)rbp)[1];
		if (ret == 0)
			break;
		kprintf("  %s\n", ksym_format(ret, buf, sizeof(buf)));
		rbp = ((uint64_t *)rbp)[0];
	}
}

static void fault_report(struct trapframe *tf)
{
	const char *name = tf->tf_vector < 32 ? exc_names[tf->tf_vector] : "unexpected interrupt";
	struct thread *t = curcpu()->cpu_thread;
	char buf[96];

	console_panic_mode();
	kprintf("\nfatal trap %lu: %s, error code 0x%lx\n", tf->tf_vector, name, tf->tf_err);
	kprintf("  at %s on cpu %d, thread %lu (%s)\n", ksym_format(tf->tf_rip, buf, sizeof(buf)),
	        curcpu()->cpu_id, t ? t->t_tid : 0UL, t ? t->t_name : "?");
	if (tf->tf_vector == 14)
		kprintf("  faulting address 0x%lx (%s, %s, %s)\n", read_cr2(),
		        tf->tf_err & 1 ? "protection" : "not present",
		        tf->tf_err & 2 ? "write" : "read", tf->tf_err & 16 ? "fetch" : "data");
	fault_print_regs(tf);
	backtrace_print(tf->tf_rip, tf->tf_rbp);
	arch_poweroff(POWEROFF_FAILURE);
}

static void irq_dispatch(struct trapframe *tf)
{
	struct cpu *c = curcpu();
	struct trapframe *prev = prov_isa_intr_enter(tf);   /* profile's arg0 */

	c->cpu_intr_depth++;
	CPU_STAT_ADD(c, sysinfo, intr, 1);
	if (tf->tf_vector == VEC_TIMER)
		timer_interrupt();
	else if (tf->tf_vector == VEC_UART)
		dev_intr(&uart_console_dev, uart_interrupt, NULL);
	else if (tf->tf_vector == VEC_LINK)
		dev_intr(&uart_link_dev, uart_link_interrupt, NULL);
	else if (tf->tf_vector >= VEC_PCI && tf->tf_vector < VEC_PCI + VEC_PCI_LINES)
		pci_intr((int)(tf->tf_vector - VEC_PCI));
	else if (tf->tf_vector == VEC_XCALL)
		xcall_poll();
	else if (tf->tf_vector == VEC_RESCHED)
		c->cpu_need_resched = true;
	if (tf->tf_vector != VEC_SPURIOUS)
		lapic_eoi();
	c->cpu_intr_depth--;
	prov_isa_intr_exit(prev);
	if (c->cpu_need_resched && c->cpu_intr_depth == 0)
		sched_preempt_check();
}

/*
 * user_page_fault_count: a page fault on a user address that was not
 * copy-on-write: vminfo's prot_fault if the page was mapped (the access was
 * not allowed), else its as_fault.
 */
static void user_page_fault_count(const struct trapframe *tf)
{
	if (tf->tf_err & 1)
		VMINFO_ADD(prot_fault, 1);
	else
		VMINFO_ADD(as_fault, 1);
}

/* trap_other: everything but a probe trap (kept out of trap_dispatch's hot path). */
static __attribute__((noinline)) void trap_other(struct trapframe *tf)
{
	if (tf->tf_vector >= 32) {
		irq_dispatch(tf);
		if (tf->tf_cs & 3)
			proc_user_return();                     /* a signal sent meanwhile */
		return;
	}
	if (tf->tf_vector == 14 && !(tf->tf_cs & 3) && vm_fault_spurious(read_cr2(), tf->tf_err & 2))
		return;                         /* a stale directory entry of the heap's: retry (vm.c) */
	if (tf->tf_vector != 3 && tf->tf_vector != 1)
		SYSINFO_ADD(trap, 1);           /* a processor trap, not a probe's own (#BP, #DB) */
	bool user_va = tf->tf_vector == 14 && ((tf->tf_cs & 3) || extable_has(tf->tf_rip));
	if (user_va && vm_cow_fault(tf))
		return;                         /* a write to a copy-on-write page, now private: retry */
	if (user_va)
		user_page_fault_count(tf);
	if (tf->tf_vector == 3 && (tf->tf_cs & 3) && pid_isa_trap(tf)) {
		proc_user_return();             /* a pid probe in user code: its raise() or stop() */
		return;
	}
	if ((tf->tf_cs & 3) && tf->tf_vector != 2 && tf->tf_vector != 8 && tf->tf_vector != 18)
		user_fault(tf);                 /* the process dies, not the kernel (NMI, #DF, #MC are the machine's) */
	if ((tf->tf_vector == 14 || tf->tf_vector == 13) && extable_fixup(tf))
		return;
	fault_report(tf);
}

void trap_dispatch(struct trapframe *tf)
{
	if (tf->tf_vector == 3 && prov_isa_trap(tf))          /* an fbt or sdt probe: the hot path */
		return;
	trap_other(tf);
}

/* arch_frame_step (arch.h): [fp] is the caller's %rbp, [fp + 8] the return address. */
uint64_t arch_frame_step(uint64_t *fp)
{
	uint64_t f = *fp;

	if (f < DMAP_BASE || (f & 7) != 0 || !mem_probe(f, 16))
		return 0;
	*fp = ((uint64_t *)f)[0];
	return ((uint64_t *)f)[1];
}

uint64_t arch_frame_make(uint64_t area[16], uint64_t ret)
{
	area[0] = 0;                 /* no caller's frame: the walk ends */
	area[1] = ret;
	return (uint64_t)area;
}
