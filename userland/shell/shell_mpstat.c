/*
 * shell_mpstat.c - mpstat [INTERVAL [COUNT]]: per-CPU statistics, a row per
 * CPU, in the columns of Solaris's mpstat(1M) that Sonde counts:
 *
 *   CPU  xcal  intr   csw  icsw syscl  usr sys idl
 *     0  1240   412   980   211  3302    4  38  58
 *
 * xcal cross-calls sent, intr interrupts, csw context switches, icsw the
 * involuntary ones, syscl system calls: each a rate, events per second;
 * usr, sys and idl the percentages of the CPU's scheduler ticks that found
 * it in user mode, in the kernel (kernel threads included) and idle
 * (kernel/cpu_stat.c: sampled, so good to a few points over a second).
 * As in Solaris, the first table covers the time since boot and each next
 * one the INTERVAL seconds before it; COUNT tables in all (without COUNT,
 * until Ctrl-C; without INTERVAL, the one table since boot).  The columns
 * Solaris has and Sonde does not count (minf, mjf, ithr, migr, smtx, srw,
 * wt) are left out rather than printed as zeros.
 *
 * Each column is a sysinfo statistic (kernel/cpu_stat.h: xcalls, intr,
 * pswitch, inv_swtch, syscall, cpu_ticks_user/kernel/idle), the counters
 * the sysinfo probes point at.  Thread context, the shell's thread; reads
 * the counters of struct cpu without locks (a value may be a moment old).
 *
 * Tests: tests/e2e/test_sunray.py
 */
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/time.h"
#include "userland/shell/shell.h"

#define MPSTAT_MAX_INTERVAL 3600        /* seconds */

/* What a scheduler tick found its CPU doing (sysinfo's cpu_ticks_*). */
enum mpstat_tick { CPU_TICK_USER, CPU_TICK_SYS, CPU_TICK_IDLE, CPU_TICK_STATES };

/* One CPU's counters at one moment. */
struct mpstat_snap {
	uint64_t ms_xcal, ms_intr, ms_csw, ms_icsw, ms_syscl;
	uint64_t ms_ticks[CPU_TICK_STATES];
};

static void mpstat_snap_take(struct mpstat_snap snap[MAX_CPUS])
{
	for (int i = 0; i < ncpus; i++) {
		const struct cpu *c = &cpus[i];
		snap[i] = (struct mpstat_snap){
			.ms_xcal = CPU_STAT_READ(c, sysinfo, xcalls),
			.ms_intr = CPU_STAT_READ(c, sysinfo, intr),
			.ms_csw = CPU_STAT_READ(c, sysinfo, pswitch),
			.ms_icsw = CPU_STAT_READ(c, sysinfo, inv_swtch),
			.ms_syscl = CPU_STAT_READ(c, sysinfo, syscall),
			.ms_ticks = { [CPU_TICK_USER] = CPU_STAT_READ(c, sysinfo, cpu_ticks_user),
			              [CPU_TICK_SYS] = CPU_STAT_READ(c, sysinfo, cpu_ticks_kernel),
			              [CPU_TICK_IDLE] = CPU_STAT_READ(c, sysinfo, cpu_ticks_idle) },
		};
	}
}

/* mpstat_rate: events per second, rounded, of a count over ns nanoseconds. */
static uint64_t mpstat_rate(uint64_t n, uint64_t ns)
{
	return ns == 0 ? 0 : (n * NSEC_PER_SEC + ns / 2) / ns;
}

/* mpstat_pct: ticks of one state as a rounded percentage of all of them. */
static unsigned mpstat_pct(const uint64_t *d, int state)
{
	uint64_t all = d[CPU_TICK_USER] + d[CPU_TICK_SYS] + d[CPU_TICK_IDLE];

	if (all == 0)
		return state == CPU_TICK_IDLE ? 100 : 0;
	return (unsigned)((d[state] * 100 + all / 2) / all);
}

/* mpstat_table: the header and a row per CPU for the change from a to b over ns. */
static void mpstat_table(const struct mpstat_snap *a, const struct mpstat_snap *b, uint64_t ns)
{
	kprintf("CPU  xcal  intr   csw  icsw syscl  usr sys idl\n");
	for (int i = 0; i < ncpus; i++) {
		uint64_t d[CPU_TICK_STATES];
		for (int s = 0; s < CPU_TICK_STATES; s++)
			d[s] = b[i].ms_ticks[s] - a[i].ms_ticks[s];
		kprintf("%3d %5lu %5lu %5lu %5lu %5lu %4u %3u %3u\n", i,
		        mpstat_rate(b[i].ms_xcal - a[i].ms_xcal, ns),
		        mpstat_rate(b[i].ms_intr - a[i].ms_intr, ns),
		        mpstat_rate(b[i].ms_csw - a[i].ms_csw, ns),
		        mpstat_rate(b[i].ms_icsw - a[i].ms_icsw, ns),
		        mpstat_rate(b[i].ms_syscl - a[i].ms_syscl, ns),
		        mpstat_pct(d, CPU_TICK_USER), mpstat_pct(d, CPU_TICK_SYS), mpstat_pct(d, CPU_TICK_IDLE));
	}
}

/* mpstat_arg: a positive whole number of at most max; false if it is not one. */
static bool mpstat_arg(const char *s, uint64_t max, uint64_t *out)
{
	return kstrtou64(s, out) && *out >= 1 && *out <= max;
}

static int shell_do_mpstat(int argc, char **argv)
{
	static struct mpstat_snap zero[MAX_CPUS], prev[MAX_CPUS], now[MAX_CPUS];
	uint64_t interval = 0, count = 1;

	if (argc > 3 || (argc > 1 && !mpstat_arg(argv[1], MPSTAT_MAX_INTERVAL, &interval)) ||
	    (argc > 2 && !mpstat_arg(argv[2], UINT64_MAX, &count)))
		return shell_usage(argv[0]);
	if (argc == 2)
		count = UINT64_MAX;                  /* an interval and no count: until Ctrl-C */
	uint64_t at = ktime_ns();
	mpstat_snap_take(prev);
	mpstat_table(zero, prev, at);            /* since boot */
	for (uint64_t n = 1; n < count; n++) {
		if (!shell_sleep_ns(interval * NSEC_PER_SEC))
			return SHELL_INTERRUPTED;
		uint64_t t = ktime_ns();
		mpstat_snap_take(now);
		mpstat_table(prev, now, t - at);
		memcpy(prev, now, sizeof(prev));
		at = t;
	}
	return SHELL_OK;
}
SHELL_COMMAND(mpstat, shell_do_mpstat, "mpstat [INTERVAL [COUNT]]",
              "per-CPU cross-calls, interrupts, switches, system calls, usr/sys/idl, per second");
