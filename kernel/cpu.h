/*
 * cpu.h - the per-CPU structure.
 *
 * Each CPU has one struct cpu in cpus[], reached with curcpu() (through the
 * GS base on x86_64); ncpus of them are running (kernel/main.c starts the
 * others unless booted with nosmp).
 */
#ifndef SONDE_CPU_H
#define SONDE_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/cpu_stat.h"
#include "kernel/lock.h"

/* The most CPUs Sonde runs on: every per-CPU array of the kernel and the framework. */
#define MAX_CPUS 8

struct thread;
struct cyclic;

/* A cross-call waiting for this CPU (kernel/xcall.c). */
struct xcall_box {
	void (*xb_fn)(void *arg);
	void *xb_arg;
	volatile uint64_t xb_req;    /* bumped by the sender */
	volatile uint64_t xb_done;   /* set to xb_req by this CPU when fn returned */
};

struct cpu {
	struct cpu *cpu_self;        /* offset 0: curcpu() reads it through GS */
	uint64_t cpu_kstack_top;     /* offset 8: the running user thread's kernel stack (syscall entry) */
	uint64_t cpu_user_sp;        /* offset 16: the user stack pointer while the entry switches stacks */
	int cpu_id;
	struct thread *cpu_thread;   /* running thread */
	struct thread *cpu_idle;     /* runs when nothing else can */
	volatile bool cpu_need_resched;
	int cpu_intr_depth;          /* > 0 inside an interrupt handler */
	void *cpu_arch;              /* arch-private (GDT, TSS) */
	uint32_t cpu_hwid;           /* the interrupt controller's id (LAPIC id) */
	volatile bool cpu_online;
	/* scheduler (kernel/thread.c), under sched_lock */
	struct thread *cpu_rq_head, *cpu_rq_tail;
	int cpu_rq_len;
	struct thread *cpu_to_reap;  /* exited thread to free after the switch */
	/* cyclics (kernel/cyclic.c), under cpu_cyclic_lock */
	struct cyclic *cpu_cyclics;
	spinlock_t cpu_cyclic_lock;
	/* cross-calls (kernel/xcall.c) */
	struct xcall_box cpu_xcall;
	spinlock_t cpu_xcall_lock;   /* one sender at a time */
	/* statistics: sysinfo and vminfo (kernel/cpu_stat.h), read by mpstat and D */
	struct cpu_stats cpu_stats;
};

/* The D library's cpu_t (dlang/lib/sched.d) is this struct, from the kernel's CTF. */

extern struct cpu cpus[MAX_CPUS];
extern int ncpus;

struct cpu *curcpu(void);        /* any context */

/*
 * cpu_stat_tick: charge this CPU's scheduler tick to user, system or idle
 * time by what the tick's interrupt interrupted (kernel/cpu_stat.c:
 * sysinfo's cpu_ticks_user, cpu_ticks_kernel, cpu_ticks_idle).
 * Interrupt context, from the scheduler's cyclic.
 */
void cpu_stat_tick(struct cpu *c);

#endif
