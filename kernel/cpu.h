/*
 * cpu.h - the per-CPU structure.
 *
 * Each CPU has one struct cpu, reached with curcpu() (through the GS base on
 * x86_64), so that per-CPU state is a switch to flip when more CPUs start,
 * not a rewrite.  One CPU today.
 */
#ifndef SONDE_CPU_H
#define SONDE_CPU_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_CPUS 8

struct thread;

struct cpu {
	struct cpu *cpu_self;        /* offset 0: curcpu() reads it through GS */
	int cpu_id;
	struct thread *cpu_thread;   /* running thread */
	struct thread *cpu_idle;     /* runs when nothing else can */
	volatile bool cpu_need_resched;
	int cpu_intr_depth;          /* > 0 inside an interrupt handler */
	uint64_t cpu_intrs;          /* interrupts taken */
	uint64_t cpu_switches;       /* context switches */
	uint64_t cpu_ts_ns;          /* scratch for the scheduler */
	void *cpu_arch;              /* arch-private (GDT, TSS) */
};

extern struct cpu cpus[MAX_CPUS];
extern int ncpus;

struct cpu *curcpu(void);        /* any context */

#endif
