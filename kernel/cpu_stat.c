/*
 * cpu_stat.c - per-CPU statistics for mpstat: where each CPU's time goes.
 *
 * The counters live in struct cpu (kernel/cpu.h), the sysinfo and vminfo
 * statistics of kernel/cpu_stat.h, each bumped where its event happens
 * (that header lists where): xcalls by the sender of a cross-call, intr
 * by the interrupt path, pswitch and inv_swtch by the scheduler's switch
 * (a switch away from a thread that is still runnable, preempted or
 * yielding, is involuntary), syscall by the system call dispatcher, and
 * so on; each add fires its sysinfo or vminfo probe.  This file charges
 * time: every
 * scheduler tick (SCHED_QUANTUM_NS, on every CPU, idle ones included) goes
 * to user, system or idle time by what its interrupt interrupted, as Unix
 * kernels have long done.  Time is therefore sampled, not measured: over an
 * interval of one second a CPU has about a hundred ticks, so a percentage
 * is good to a few points, and work that always runs between two ticks is
 * missed.
 *
 * Counters are added to atomically (a thread may move between reading
 * curcpu() and the add) and read by anyone without a lock: a reader (the
 * shell's mpstat, a D program) may see a counter a moment old, never a
 * torn one (aligned 64-bit words).  The tick's counters fire
 * sysinfo:::cpu_ticks_idle, cpu_ticks_kernel and cpu_ticks_user on the
 * CPU the tick is about, with arg2 that CPU.
 *
 * Tests: tests/e2e/test_sunray.py (mpstat's columns); tests/d/sysinfo
 */
#include "kernel/cpu.h"
#include "kernel/prov_isa.h"

void cpu_stat_tick(struct cpu *c)
{
	uint64_t pc, fp;
	bool user = false;

	if (c->cpu_thread == c->cpu_idle)
		CPU_STAT_ADD(c, sysinfo, cpu_ticks_idle, 1);
	else if (prov_isa_intr_frame(&pc, &fp, &user) && user)
		CPU_STAT_ADD(c, sysinfo, cpu_ticks_user, 1);
	else
		CPU_STAT_ADD(c, sysinfo, cpu_ticks_kernel, 1);
}
