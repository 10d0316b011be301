/*
 * shell_stats.c - the statistics commands, mpstat, vmstat and iostat, in
 * the columns of Solaris's mpstat(1M), vmstat(1M) and iostat(1M) that
 * Sonde counts.
 *
 * mpstat [INTERVAL [COUNT]]: per-CPU statistics, a row per CPU:
 *
 *   CPU  xcal  intr   csw  icsw syscl  usr sys idl
 *     0  1240   412   980   211  3302    4  38  58
 *
 * xcal cross-calls sent, intr interrupts, csw context switches, icsw the
 * involuntary ones, syscl system calls: each a rate, events per second;
 * usr, sys and idl the percentages of the CPU's scheduler ticks that found
 * it in user mode, in the kernel (kernel threads included) and idle
 * (kernel/cpu_stat.c: sampled, so good to a few points over a second).
 * The columns Solaris has and Sonde does not count (minf, mjf, ithr, migr,
 * smtx, srw, wt) are left out rather than printed as zeros.
 *
 * vmstat [INTERVAL [COUNT]]: the whole machine, the header once and a row
 * per report:
 *
 *    kthr     memory  page  disk            faults       cpu
 *    r         free    mf v0    in    sy    cs  us sy id
 *    1       255152    14  3   133   179   180  25  5 69
 *    1       255152     0  0   138     0    95   0  1 99
 *
 * r the threads waiting on a run queue (a snapshot), free the free
 * memory in KiB, mf the minor faults per second (vminfo's as_fault,
 * prot_fault and cow_fault: Sonde has no paging, so every fault is
 * minor), then a column per disk (up to four, named as Solaris names
 * them, the driver's first letter and the instance: v0 for vioblk0) of
 * the requests it completed per second, in, sy and cs the interrupts,
 * system calls and context switches per second of every CPU, us/sy/id as
 * mpstat's over all CPUs.  Left out, with no event to count: b and w (no
 * thread is counted waiting for I/O or swapped out), swap, re, pi, po,
 * fr, de, sr (no paging device: the buffer cache's reads are iostat's).
 *
 * iostat [-x] [INTERVAL [COUNT]]: the disks (kernel/blkdev.h's counters,
 * Solaris's kstat_io ones) and the CPUs.  Plain, a header and a row per
 * report, three columns per disk and the CPU's four:
 *
 *        vioblk0          cpu
 *    kps  tps serv   us sy wt id
 *     12    3    1    0  1  0 99
 *
 * kps KiB moved per second, tps requests per second, serv their mean
 * service time in ms (the time requests were in flight over the requests
 * done); wt is always 0 (Solaris's wait-for-I/O time is no state of
 * Sonde's CPUs).  With -x, the extended statistics, a table per report:
 *
 *                     extended device statistics
 *    device      r/s    w/s   kr/s   kw/s wait actv  svc_t  %w  %b
 *    vioblk0     0.0    2.0    0.0    8.0  0.0  0.0    0.4   0   0
 *
 * reads and writes and KiB of each per second, wait the mean requests
 * queued and not yet at the device (0: the driver hands each over at
 * once), actv the mean in flight, svc_t as serv, %w the time some request
 * waited (0), %b the time the disk was busy.  Left out of both: the tty
 * columns (Sonde does not count terminal characters).
 *
 * All, as in Solaris: the first report covers the time since boot and
 * each next one the INTERVAL seconds before it; COUNT reports in all
 * (without COUNT, until Ctrl-C; without INTERVAL, the one since boot).
 *
 * Each column is a sysinfo or vminfo statistic (kernel/cpu_stat.h), the
 * counters those probes point at.  Thread context, the shell's thread;
 * reads the counters of struct cpu without locks (a value may be a moment
 * old).
 *
 * Tests: tests/e2e/test_sunray.py (mpstat), tests/e2e/test_stat_commands.py,
 * tests/e2e/test_disk.py (iostat)
 */
#include "kernel/blkdev.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "console/shell/shell.h"

#define STAT_MAX_INTERVAL 3600          /* seconds */

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

/* stat_rate: events per second, rounded, of a count over ns nanoseconds. */
static uint64_t stat_rate(uint64_t n, uint64_t ns)
{
	return ns == 0 ? 0 : (n * NSEC_PER_SEC + ns / 2) / ns;
}

/* stat_pct: ticks of one state as a rounded percentage of all of them. */
static unsigned stat_pct(const uint64_t *d, int state)
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
		        stat_rate(b[i].ms_xcal - a[i].ms_xcal, ns),
		        stat_rate(b[i].ms_intr - a[i].ms_intr, ns),
		        stat_rate(b[i].ms_csw - a[i].ms_csw, ns),
		        stat_rate(b[i].ms_icsw - a[i].ms_icsw, ns),
		        stat_rate(b[i].ms_syscl - a[i].ms_syscl, ns),
		        stat_pct(d, CPU_TICK_USER), stat_pct(d, CPU_TICK_SYS), stat_pct(d, CPU_TICK_IDLE));
	}
}

/* stat_arg: a positive whole number of at most max; false if it is not one. */
static bool stat_arg(const char *s, uint64_t max, uint64_t *out)
{
	return kstrtou64(s, out) && *out >= 1 && *out <= max;
}

/* One command's way of taking and printing its snapshots. */
struct stat_cmd {
	void (*sc_header)(const void *first);    /* printed once, before the first report, from its snapshot; or NULL */
	void (*sc_take)(void *snap);
	void (*sc_table)(const void *a, const void *b, uint64_t ns);
	void *sc_zero, *sc_prev, *sc_now;        /* three snapshots of sc_size bytes */
	size_t sc_size;
};

/* stat_run: [INTERVAL [COUNT]] reports of cmd: since boot, then each interval's. */
static int stat_run(const struct stat_cmd *cmd, int argc, char **argv)
{
	uint64_t interval = 0, count = 1;

	if (argc > 3 || (argc > 1 && !stat_arg(argv[1], STAT_MAX_INTERVAL, &interval)) ||
	    (argc > 2 && !stat_arg(argv[2], UINT64_MAX, &count)))
		return shell_usage(argv[0]);
	if (argc == 2)
		count = UINT64_MAX;                  /* an interval and no count: until Ctrl-C */
	uint64_t at = ktime_ns();
	cmd->sc_take(cmd->sc_prev);
	if (cmd->sc_header != NULL)
		cmd->sc_header(cmd->sc_prev);            /* the columns of the disks it found */
	cmd->sc_table(cmd->sc_zero, cmd->sc_prev, at);   /* since boot */
	for (uint64_t n = 1; n < count; n++) {
		if (!shell_sleep_ns(interval * NSEC_PER_SEC))
			return SHELL_INTERRUPTED;
		uint64_t t = ktime_ns();
		cmd->sc_take(cmd->sc_now);
		cmd->sc_table(cmd->sc_prev, cmd->sc_now, t - at);
		memcpy(cmd->sc_prev, cmd->sc_now, cmd->sc_size);
		at = t;
	}
	return SHELL_OK;
}

static void mpstat_take(void *snap)
{
	mpstat_snap_take(snap);
}

static void mpstat_print(const void *a, const void *b, uint64_t ns)
{
	mpstat_table(a, b, ns);
}

static int shell_do_mpstat(int argc, char **argv)
{
	static struct mpstat_snap zero[MAX_CPUS], prev[MAX_CPUS], now[MAX_CPUS];
	static const struct stat_cmd cmd = { NULL, mpstat_take, mpstat_print, zero, prev, now, sizeof(prev) };

	return stat_run(&cmd, argc, argv);
}
SHELL_COMMAND(mpstat, shell_do_mpstat, "mpstat [INTERVAL [COUNT]]",
              "per-CPU cross-calls, interrupts, switches, system calls, usr/sys/idl, per second");

/* ---- vmstat ---- */

/* The machine's counters at one moment: every CPU's summed, and two snapshots. */
#define VMSTAT_DISKS 4

struct vmstat_snap {
	uint64_t vs_mf, vs_in, vs_sy, vs_cs;
	int vs_ndisks;
	uint64_t vs_disk_ops[VMSTAT_DISKS];      /* requests each disk completed */
	char vs_disk_name[VMSTAT_DISKS][8];      /* its column: the driver's first letter, the instance (v0) */
	uint64_t vs_ticks[CPU_TICK_STATES];
	uint64_t vs_runq;                        /* threads waiting on a run queue */
	uint64_t vs_free_kib;
};

static void vmstat_disk(struct blkdev *bd, void *arg)
{
	struct vmstat_snap *v = arg;
	struct blk_stats st;

	if (v->vs_ndisks == VMSTAT_DISKS)
		return;
	blk_stats_read(bd, &st);
	ksnprintf(v->vs_disk_name[v->vs_ndisks], sizeof v->vs_disk_name[0], "%c%d", bd->bd_name[0],
	          bd->bd_dip.devi_instance);
	v->vs_disk_ops[v->vs_ndisks++] = st.bs_reads + st.bs_writes;
}

static void vmstat_take(void *out)
{
	static struct thread_info ti[512];       /* the shell's thread only */
	struct vmstat_snap *v = out;
	struct pmem_stats ps;

	*v = (struct vmstat_snap){ 0 };
	for (int i = 0; i < ncpus; i++) {
		const struct cpu *c = &cpus[i];
		v->vs_mf += CPU_STAT_READ(c, vminfo, as_fault) + CPU_STAT_READ(c, vminfo, prot_fault) +
		            CPU_STAT_READ(c, vminfo, cow_fault);
		v->vs_in += CPU_STAT_READ(c, sysinfo, intr);
		v->vs_sy += CPU_STAT_READ(c, sysinfo, syscall);
		v->vs_cs += CPU_STAT_READ(c, sysinfo, pswitch);
		v->vs_ticks[CPU_TICK_USER] += CPU_STAT_READ(c, sysinfo, cpu_ticks_user);
		v->vs_ticks[CPU_TICK_SYS] += CPU_STAT_READ(c, sysinfo, cpu_ticks_kernel);
		v->vs_ticks[CPU_TICK_IDLE] += CPU_STAT_READ(c, sysinfo, cpu_ticks_idle);
	}
	int n = thread_list(ti, (int)ARRAY_SIZE(ti));
	for (int i = 0; i < n && i < (int)ARRAY_SIZE(ti); i++)
		v->vs_runq += ti[i].ti_state == TS_RUNNABLE;
	pmem_stats(&ps);
	v->vs_free_kib = ps.ps_free / 1024;
	blk_each(vmstat_disk, v);
}

static void vmstat_header(const void *first)
{
	const struct vmstat_snap *v = first;
	int nd = v->vs_ndisks;

	kprintf(" %-4s%11s%6s", "kthr", "memory", "page");
	if (nd > 0)
		kprintf("%*s", 3 + 3 * nd, "disk");
	kprintf("%18s%10s\n", "faults", "cpu");
	kprintf(" %-3s %10s %5s", "r", "free", "mf");
	for (int i = 0; i < nd; i++)
		kprintf(" %2s", v->vs_disk_name[i]);
	kprintf(" %5s %5s %5s %3s %2s %2s\n", "in", "sy", "cs", "us", "sy", "id");
}

static void vmstat_print(const void *pa, const void *pb, uint64_t ns)
{
	const struct vmstat_snap *a = pa, *b = pb;
	uint64_t d[CPU_TICK_STATES];

	for (int s = 0; s < CPU_TICK_STATES; s++)
		d[s] = b->vs_ticks[s] - a->vs_ticks[s];
	kprintf(" %-3lu %10lu %5lu", (unsigned long)b->vs_runq, (unsigned long)b->vs_free_kib,
	        stat_rate(b->vs_mf - a->vs_mf, ns));
	for (int i = 0; i < b->vs_ndisks; i++)
		kprintf(" %2lu", stat_rate(b->vs_disk_ops[i] - (i < a->vs_ndisks ? a->vs_disk_ops[i] : 0), ns));
	kprintf(" %5lu %5lu %5lu %3u %2u %2u\n",
	        stat_rate(b->vs_in - a->vs_in, ns), stat_rate(b->vs_sy - a->vs_sy, ns),
	        stat_rate(b->vs_cs - a->vs_cs, ns), stat_pct(d, CPU_TICK_USER), stat_pct(d, CPU_TICK_SYS),
	        stat_pct(d, CPU_TICK_IDLE));
}

static int shell_do_vmstat(int argc, char **argv)
{
	static struct vmstat_snap zero, prev, now;
	static const struct stat_cmd cmd = { vmstat_header, vmstat_take, vmstat_print, &zero, &prev, &now, sizeof(prev) };

	return stat_run(&cmd, argc, argv);
}
SHELL_COMMAND(vmstat, shell_do_vmstat, "vmstat [INTERVAL [COUNT]]",
              "run queue, free memory, faults, interrupts, system calls, switches, usr/sys/idl");


/* ---- iostat ---- */

#define IOSTAT_DISKS 8

/* The disks' counters and the CPUs' ticks at one moment. */
struct iostat_snap {
	int is_ndisks;
	struct blk_stats is_disk[IOSTAT_DISKS];
	const char *is_name[IOSTAT_DISKS];
	uint64_t is_ticks[CPU_TICK_STATES];
};

static void iostat_disk(struct blkdev *bd, void *arg)
{
	struct iostat_snap *v = arg;

	if (v->is_ndisks == IOSTAT_DISKS)
		return;
	v->is_name[v->is_ndisks] = bd->bd_statname;
	blk_stats_read(bd, &v->is_disk[v->is_ndisks++]);
}

static void iostat_take(void *out)
{
	struct iostat_snap *v = out;

	*v = (struct iostat_snap){ 0 };
	blk_each(iostat_disk, v);
	for (int i = 0; i < ncpus; i++) {
		v->is_ticks[CPU_TICK_USER] += CPU_STAT_READ(&cpus[i], sysinfo, cpu_ticks_user);
		v->is_ticks[CPU_TICK_SYS] += CPU_STAT_READ(&cpus[i], sysinfo, cpu_ticks_kernel);
		v->is_ticks[CPU_TICK_IDLE] += CPU_STAT_READ(&cpus[i], sysinfo, cpu_ticks_idle);
	}
}

/* stat_tenths: n over ns nanoseconds as a rate, in tenths per second ("%lu.%lu"). */
static uint64_t stat_tenths(uint64_t n, uint64_t ns)
{
	return ns == 0 ? 0 : (n * 10 * NSEC_PER_SEC + ns / 2) / ns;
}

/* The changes of disk i between a and b, and what iostat derives from them. */
struct iostat_delta {
	uint64_t id_reads, id_writes, id_kread, id_kwritten;
	uint64_t id_busy_ns, id_qlen_ns;
	uint64_t id_svc_tenths_ms;               /* mean service time, tenths of ms */
};

static void iostat_delta(const struct iostat_snap *a, const struct iostat_snap *b, int i,
                         struct iostat_delta *d)
{
	const struct blk_stats *x = &b->is_disk[i];
	static const struct blk_stats none;
	const struct blk_stats *w = i < a->is_ndisks ? &a->is_disk[i] : &none;

	d->id_reads = x->bs_reads - w->bs_reads;
	d->id_writes = x->bs_writes - w->bs_writes;
	d->id_kread = (x->bs_nread - w->bs_nread) / 1024;
	d->id_kwritten = (x->bs_nwritten - w->bs_nwritten) / 1024;
	d->id_busy_ns = x->bs_busy_ns - w->bs_busy_ns;
	d->id_qlen_ns = x->bs_qlen_ns - w->bs_qlen_ns;
	uint64_t ops = d->id_reads + d->id_writes;
	d->id_svc_tenths_ms = ops == 0 ? 0 : (d->id_qlen_ns / ops + 50000) / 100000;
}

static void iostat_header(const void *first)
{
	const struct iostat_snap *v = first;

	for (int i = 0; i < v->is_ndisks; i++)
		kprintf(" %10s     ", v->is_name[i]);
	kprintf("      cpu\n");
	for (int i = 0; i < v->is_ndisks; i++)
		kprintf(" %4s %4s %4s", "kps", "tps", "serv");
	kprintf("   us sy wt id\n");
}

static void iostat_print(const void *pa, const void *pb, uint64_t ns)
{
	const struct iostat_snap *a = pa, *b = pb;
	uint64_t t[CPU_TICK_STATES];

	for (int i = 0; i < b->is_ndisks; i++) {
		struct iostat_delta d;
		iostat_delta(a, b, i, &d);
		kprintf(" %4lu %4lu %4lu", stat_rate(d.id_kread + d.id_kwritten, ns),
		        stat_rate(d.id_reads + d.id_writes, ns), (d.id_svc_tenths_ms + 5) / 10);
	}
	for (int s = 0; s < CPU_TICK_STATES; s++)
		t[s] = b->is_ticks[s] - a->is_ticks[s];
	kprintf("  %3u %2u %2u %2u\n", stat_pct(t, CPU_TICK_USER), stat_pct(t, CPU_TICK_SYS), 0u,
	        stat_pct(t, CPU_TICK_IDLE));
}

static void iostat_print_x(const void *pa, const void *pb, uint64_t ns)
{
	const struct iostat_snap *a = pa, *b = pb;

	kprintf("                    extended device statistics\n");
	kprintf("%-10s %6s %6s %6s %6s %4s %4s %6s %3s %3s\n", "device", "r/s", "w/s", "kr/s", "kw/s",
	        "wait", "actv", "svc_t", "%w", "%b");
	for (int i = 0; i < b->is_ndisks; i++) {
		struct iostat_delta d;
		iostat_delta(a, b, i, &d);
		uint64_t rs = stat_tenths(d.id_reads, ns), ws = stat_tenths(d.id_writes, ns);
		uint64_t krs = stat_tenths(d.id_kread, ns), kws = stat_tenths(d.id_kwritten, ns);
		uint64_t actv = ns == 0 ? 0 : (d.id_qlen_ns * 10 + ns / 2) / ns;
		uint64_t busy = ns == 0 ? 0 : (d.id_busy_ns * 100 + ns / 2) / ns;
		kprintf("%-10s %4lu.%lu %4lu.%lu %4lu.%lu %4lu.%lu  0.0 %2lu.%lu %4lu.%lu   0 %3lu\n",
		        b->is_name[i], rs / 10, rs % 10, ws / 10, ws % 10, krs / 10, krs % 10,
		        kws / 10, kws % 10, actv / 10, actv % 10, d.id_svc_tenths_ms / 10,
		        d.id_svc_tenths_ms % 10, busy > 100 ? 100 : busy);
	}
}

static int shell_do_iostat(int argc, char **argv)
{
	static struct iostat_snap zero, prev, now;
	static const struct stat_cmd plain = { iostat_header, iostat_take, iostat_print, &zero, &prev, &now, sizeof(prev) };
	static const struct stat_cmd ext = { NULL, iostat_take, iostat_print_x, &zero, &prev, &now, sizeof(prev) };
	bool x = argc > 1 && strcmp(argv[1], "-x") == 0;

	if (x) {
		argv[1] = argv[0];                   /* "-x" taken: INTERVAL and COUNT follow */
		argv++;
		argc--;
	}
	if (blk_first() == NULL)
		kprintf("iostat: no disks\n");
	return stat_run(x ? &ext : &plain, argc, argv);
}
SHELL_COMMAND(iostat, shell_do_iostat, "iostat [-x] [INTERVAL [COUNT]]",
              "disks' KiB, requests and service time per second, and usr/sys/wt/idl; -x extended");
