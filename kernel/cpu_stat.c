/*
 * cpu_stat.c - per-CPU statistics for mpstat: where each CPU's time goes.
 *
 * The counters live in struct cpu (kernel/cpu.h), each bumped where its
 * event happens: cpu_xcalls by the sender of a cross-call (xcall.c),
 * cpu_intrs by the interrupt path (arch trap.c), cpu_switches and cpu_icsw
 * by the scheduler's switch (thread.c: a switch away from a thread that is
 * still runnable, preempted or yielding, is involuntary), cpu_syscalls by
 * the system call dispatcher (syscall.c).  This file charges time: every
 * scheduler tick (SCHED_QUANTUM_NS, on every CPU, idle ones included) goes
 * to user, system or idle time by what its interrupt interrupted, as Unix
 * kernels have long done.  Time is therefore sampled, not measured: over an
 * interval of one second a CPU has about a hundred ticks, so a percentage
 * is good to a few points, and work that always runs between two ticks is
 * missed.
 *
 * Counters are written by their own CPU only (cpu_syscalls atomically,
 * since a thread may move between reading and writing it) and read by
 * anyone without a lock: a reader (the shell's mpstat) may see a counter a
 * moment old, never a torn one (aligned 64-bit words).
 *
 * Tests: tests/e2e/test_sunray.py (mpstat's columns)
 */
#include "kernel/cpu.h"
#include "kernel/prov_isa.h"

void cpu_stat_tick(struct cpu *c)
{
	uint64_t pc, fp;
	bool user = false;

	if (c->cpu_thread == c->cpu_idle)
		c->cpu_ticks[CPU_TICK_IDLE]++;
	else if (prov_isa_intr_frame(&pc, &fp, &user) && user)
		c->cpu_ticks[CPU_TICK_USER]++;
	else
		c->cpu_ticks[CPU_TICK_SYS]++;
}
