/*
 * sched.d: the CPU a probe fires on, as cpuinfo_t, and curcpu; curthread.
 *
 * Part of Sonde's D library (dlang/dt_lib.c).  As in DTrace, curcpu is an
 * inline of type cpuinfo_t * that translates the running CPU's kernel
 * structure, so `curcpu->cpu_id` is the CPU's id (the same as the built-in
 * cpu).  Inside this file's inline, curcpu still names the built-in
 * variable it hides: the address of the CPU's struct cpu (kernel/cpu.h).
 *
 * cpu_t is the kernel's own struct cpu, from the kernel's CTF (dlang/
 * dt_ctf.c), so its members are wherever kernel/cpu.h puts them (the test
 * tests/d/dlib/tst.curcpu.d checks cpu_id against cpu).  Sonde has
 * no processor sets (cpu_pset is PS_NONE, -1), one chip and one locality
 * group (cpu_chip and cpu_lgrp are 0); cpu_info has no translation.
 */

typedef int chipid_t;
typedef int lgrp_id_t;
typedef int psetid_t;

typedef struct processor_info {
	int pi_state;			/* P_ONLINE ... */
	char pi_processor_type[16];	/* the CPU type, as text */
	char pi_fputypes[32];		/* the FPU types, as text */
	int pi_clock;			/* clock frequency in MHz */
} processor_info_t;

typedef struct cpuinfo {
	processorid_t cpu_id;		/* the CPU's identifier */
	psetid_t cpu_pset;		/* its processor set */
	chipid_t cpu_chip;		/* its chip */
	lgrp_id_t cpu_lgrp;		/* its locality group */
	processor_info_t cpu_info;	/* what the CPU is */
} cpuinfo_t;

/* the kernel's struct cpu (kernel/cpu.h), as its CTF describes it */
typedef struct cpu cpu_t;

translator cpuinfo_t < cpu_t *C > {
	cpu_id = C->cpu_id;
	cpu_pset = -1;
	cpu_chip = 0;
	cpu_lgrp = 0;
};

inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> ((cpu_t *)curcpu);
inline psetid_t pset = curcpu->cpu_pset;
inline chipid_t chip = curcpu->cpu_chip;
inline lgrp_id_t lgrp = curcpu->cpu_lgrp;

/*
 * The running thread, a pointer as in DTrace (a kthread_t *): the kernel's
 * struct thread (kernel/thread.h), whose members D can follow with the
 * kernel's CTF (curthread->t_name).
 */
typedef struct thread kthread_t;
inline kthread_t *curthread = (kthread_t *)curthread;

/*
 * sched:::enqueue and dequeue's args[2]: the CPU whose run queue the
 * thread goes on or leaves, from the thread itself (its t_cpu, set to
 * that queue's CPU before the probe fires; kernel/thread.c).
 */
translator cpuinfo_t < kthread_t *T > {
	cpu_id = T->t_cpu;
	cpu_pset = -1;
	cpu_chip = 0;
	cpu_lgrp = 0;
};
