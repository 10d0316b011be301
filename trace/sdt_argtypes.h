/*
 * trace/sdt_argtypes.h: the argument types of the sdt, sched, sysinfo,
 * vminfo and proc probes, as one table for the guest's providers (trace/prov_sdt.c,
 * trace/prov_proc.c) and the host compiler (tools/dtc_ctf.c), which has no
 * probe table to ask.
 *
 * sdt: what each site passes (illumos keeps such a table too: the
 * DTRACE_PROBE macros cannot name their arguments' types).  A probe not
 * listed is untyped.
 *
 * sched: as DTrace types them, the thread a probe is about as an
 * lwpsinfo_t * and a psinfo_t *, both translated (dlang/lib/procfs.d) from
 * the site's struct thread * (its arg0).  enqueue and dequeue also have,
 * as in DTrace, args[2], the CPU whose run queue the thread goes on or
 * leaves, as a cpuinfo_t * translated from the same thread (its t_cpu,
 * which the scheduler sets to that queue's CPU; dlang/lib/sched.d).
 *
 * sysinfo and vminfo: every probe the same (kernel/cpu_stat.h): the
 * increment, a pointer to the counter, the CPU whose counter it is (the
 * Guide's cpu_t *, which is Sonde's struct cpu).
 *
 * Data only (static const); a program that includes it twice holds two copies.
 */
#ifndef SONDE_SDT_ARGTYPES_H
#define SONDE_SDT_ARGTYPES_H

static const struct sdt_argdesc {
	const char *sa_name;
	const char *sa_types[2];
} sdt_argdescs[] = {
	{ "console-transmit", { "const char *", "size_t" } },
	{ "console-receive", { "int", NULL } },
	{ "interrupt-start", { "struct dev_info *", NULL } },
	{ "interrupt-complete", { "struct dev_info *", NULL } },
	{ "cyclic-fire", { "struct cyclic *", "void (*)(void *)" } },
	{ "kmem-alloc", { "void *", "size_t" } },
	{ "kmem-free", { "void *", "size_t" } },
	{ "enqueue", { "struct thread *", NULL } },
	{ "dequeue", { "struct thread *", NULL } },
	{ "off-cpu", { "struct thread *", NULL } },
	{ "wakeup", { "struct thread *", NULL } },
	{ "sleep", { "struct waitq *", NULL } },
	{ "queue-put", { "struct wl_queue *", "uint64_t" } },
	{ "queue-get", { "struct wl_queue *", "uint64_t" } },
};

static const struct sched_argdesc {
	const char *sa_name;
	int sa_nargs;                        /* how many of sched_xlate it has */
} sched_typed[] = { { "enqueue", 3 }, { "dequeue", 3 }, { "off-cpu", 2 }, { "wakeup", 2 } };
static const char *const sched_xlate[3] = { "lwpsinfo_t *", "psinfo_t *", "cpuinfo_t *" };
#define SCHED_NATIVE "struct thread *"

static const char *const cpu_stat_argtypes[3] = { "uint64_t", "uint64_t *", "struct cpu *" };

/*
 * io: as the Guide types them, all three translated from the site's one
 * argument, the request's struct buf * (kernel/blkdev.h; dlang/lib/io.d).
 */
#define IO_NATIVE "struct buf *"
static const char *const io_xlate[3] = { "bufinfo_t *", "devinfo_t *", "fileinfo_t *" };

/* fsinfo: args[0] the file's fileinfo_t * (from its struct file *), args[1] the operation's number. */
static const char *const fsinfo_native[2] = { "struct file *", "int64_t" };
static const char *const fsinfo_xlate[2] = { "fileinfo_t *", NULL };

/*
 * proc: as the Guide types them.  A psinfo_t * or lwpsinfo_t * is
 * translated from the process's struct proc * (its native type); the
 * others are not translated (pa_xlate NULL).  A probe not listed has no
 * arguments.
 */
#define PROC_NATIVE "struct proc *"
static const struct proc_argdesc {
	const char *pa_name;
	const char *pa_native[3];
	const char *pa_xlate[3];
} proc_argdescs[] = {
	{ "create", { PROC_NATIVE }, { "psinfo_t *" } },
	{ "exec", { "char *" }, { NULL } },
	{ "exec-failure", { "int" }, { NULL } },
	{ "exit", { "int" }, { NULL } },
	{ "signal-send", { PROC_NATIVE, PROC_NATIVE, "int" }, { "lwpsinfo_t *", "psinfo_t *" } },
};

#endif /* SONDE_SDT_ARGTYPES_H */
