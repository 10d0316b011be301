/*
 * cpu_stat.h - the per-CPU statistics of DTrace's sysinfo and vminfo
 * providers: counters, and the probe site that goes with each.
 *
 *   SYSINFO_ADD(readch, r);      sysinfo:kernel:<function>:readch
 *   VMINFO_ADD(cow_fault, 1);    vminfo:kernel:<function>:cow_fault
 *
 * Each statistic is a 64-bit counter in the running CPU's struct cpu
 * (cpu_stats.sysinfo.<name>, cpu_stats.vminfo.<name>), the kstat "sys"
 * and "vm" of Solaris.  Where the event happens the kernel adds to it with
 * one of the macros above, which first passes an sdt site (kernel/sdt.h:
 * one NOP while the probe is off) named sysinfo__<name> or vminfo__<name>;
 * trace/prov_sdt.c publishes such a site as the probe
 * <provider>:kernel:<function>:<name> and not as an sdt probe.  As the
 * Dynamic Tracing Guide says, the probe fires just before the counter is
 * incremented, with
 *
 *   arg0  the increment (1, or the bytes of readch and writech)
 *   arg1  a uint64_t * to the counter, still holding its old value
 *   arg2  the struct cpu * (D's cpu_t *) whose counter it is
 *
 * The add is atomic: a thread that moved to another CPU between reading
 * curcpu() and the add charges the first CPU, whose own thread may be
 * adding too.  Readers (mpstat, D) read without a lock and may see a value
 * a moment old, never a torn one.  Any context.
 *
 * What Sonde counts, and where:
 *   sysinfo: bread, bwrite, bawrite (blkdev.c: a buffer goes to a disk),
 *     lread, lwrite (the buffer cache's logical reads and writes),
 *     cpu_ticks_idle/kernel/user (cpu_stat.c, each scheduler tick),
 *     idlethread (thread.c: the idle thread starts waiting), intr (arch
 *     trap.c), inv_swtch and pswitch (thread.c's switch), namei (vfs.c: a
 *     path looked up), nthreads (thread.c), procovf (proc.c: the process
 *     table was full), readch, writech, sysread, syswrite, sysexec,
 *     sysfork (syscall.c), syscall (the dispatcher), trap (arch trap.c: a
 *     processor exception other than a probe's own trap), xcalls (xcall.c).
 *   vminfo: as_fault and prot_fault (arch trap paths: a user page fault, on
 *     a page not mapped or mapped without the access), cow_fault (the
 *     arch's copy-on-write fault; arg0 the pages copied: 0 when the space
 *     held the only reference and the page only became writable).
 * Sonde maps anonymous memory when it is asked for (mmap, brk, exec) and
 * has no paging device, so zfod, maj_fault, the page-in/out, free-list and
 * swap statistics have no event to count and are not published.
 *
 * Tests: tests/d/sysinfo, tests/d/vminfo; tests/e2e/test_sunray.py (mpstat)
 */
#ifndef SONDE_CPU_STAT_H
#define SONDE_CPU_STAT_H

#include <stdint.h>
#include "kernel/sdt.h"

/* The "sys" statistics Sonde has (field names are the probe names). */
struct cpu_sysinfo {
	uint64_t cpu_ticks_idle, cpu_ticks_kernel, cpu_ticks_user;
	uint64_t bawrite, bread, bwrite, lread, lwrite;
	uint64_t idlethread, intr, inv_swtch, namei, nthreads, procovf, pswitch;
	uint64_t readch, writech, sysread, syswrite, sysexec, sysfork, syscall, trap, xcalls;
};

/* The "vm" statistics Sonde has. */
struct cpu_vminfo {
	uint64_t as_fault, cow_fault, prot_fault;
};

struct cpu_stats {
	struct cpu_sysinfo sysinfo;
	struct cpu_vminfo vminfo;
};

/* CPU_STAT_ADD: fire <grp>:::<stat> for CPU c's counter, then add n to it. */
#define CPU_STAT_ADD(c, grp, stat, n) do { \
	struct cpu *const cs_cpu_ = (c); \
	uint64_t *const cs_ctr_ = &cs_cpu_->cpu_stats.grp.stat; \
	const uint64_t cs_n_ = (uint64_t)(n); \
	DTRACE_PROBE3(grp##__##stat, cs_n_, cs_ctr_, cs_cpu_); \
	__atomic_fetch_add(cs_ctr_, cs_n_, __ATOMIC_RELAXED); \
} while (0)

#define SYSINFO_ADD(stat, n) CPU_STAT_ADD(curcpu(), sysinfo, stat, n)
#define VMINFO_ADD(stat, n)  CPU_STAT_ADD(curcpu(), vminfo, stat, n)

/* cpu_stat_read: a counter of another CPU, read once (any context). */
#define CPU_STAT_READ(c, grp, stat) __atomic_load_n(&(c)->cpu_stats.grp.stat, __ATOMIC_RELAXED)

#endif
