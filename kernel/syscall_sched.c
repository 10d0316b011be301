/*
 * syscall_sched.c - sched_setaffinity(2): which CPUs the calling process
 * may run on.
 *
 * Only the caller itself (pid 0 or its own pid; another is ESRCH).  The
 * mask is Linux's (bit c for CPU c, cpusetsize bytes, at most 8 read).
 * The scheduler binds a thread to one CPU or none (thread_bind), so a mask
 * with every online CPU frees the process, and any other mask binds it to
 * the lowest online CPU in it; no online CPU in the mask is EINVAL.  The
 * process is on that CPU when the call returns.  A child of fork starts
 * free (Linux's inherits the mask).  /bin/mapper uses it to
 * move from CPU to CPU, so that its munmaps need TLB shootdowns
 * (docs/processes.md).
 *
 * Tests: tests/e2e/test_mem.py (sched_setaffinity)
 */
#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "kernel/syscall.h"
#include "kernel/thread.h"

/* online_mask: bit c for each CPU c that runs. */
static uint64_t online_mask(void)
{
	uint64_t m = 0;

	for (int c = 0; c < ncpus && c < 64; c++)
		if (cpus[c].cpu_online)
			m |= 1UL << c;
	return m;
}

int64_t sys_sched_setaffinity(const uint64_t a[6])
{
	struct proc *p = curproc();
	uint64_t mask = 0, online = online_mask();

	if (a[0] != 0 && a[0] != (uint64_t)p->p_pid)
		return -ESRCH;
	if (a[1] == 0)
		return -EINVAL;
	if (arch_copyin(&mask, a[2], MIN(a[1], sizeof(mask))) < 0)
		return -EFAULT;
	if (a[1] < sizeof(mask))
		mask &= (1UL << (a[1] * 8)) - 1;
	mask &= online;
	if (mask == 0)
		return -EINVAL;
	thread_bind(mask == online ? -1 : __builtin_ctzl(mask));
	return 0;
}
