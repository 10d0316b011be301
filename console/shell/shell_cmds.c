/*
 * shell_cmds.c - the shell's built-in commands.
 *
 * Each command is one small function shell_do_<name>(argc, argv) plus its
 * SHELL_COMMAND() registration right below it.  Commands check their
 * arguments first and answer bad ones with shell_usage(); failures print
 * one line through shell_error().  They use only the kernel's public
 * headers.  (The `run` command lives with the workloads, in
 * console/workloads/workload.c.)
 *
 * Order: help and echo; time and threads (uptime, sleep, ps; kill is in
 * shell_proc.c); memory
 * and symbols (mem, sym); the machine (halt, reboot, crash).
 *
 * Tests: tests/unit/shell_cmds_test.c; tests/e2e/test_commands.py
 */
#include "console/shell/shell.h"
#include "kernel/klib.h"
#include "kernel/console.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "arch/arch.h"

#define PS_MAX_THREADS 256

/* --- help and echo ------------------------------------------------------- */

/* shell_cmds_sorted: fill out[] with the commands in name order; returns the count. */
static int shell_cmds_sorted(const struct shell_cmd **out, int max)
{
	int n = 0;

	for (int i = 0; i < shell_cmd_count() && n < max; i++) {
		const struct shell_cmd *c = shell_cmd_get(i);
		int j = n++;
		for (; j > 0 && strcmp(out[j - 1]->sc_name, c->sc_name) > 0; j--)
			out[j] = out[j - 1];
		out[j] = c;
	}
	return n;
}

static int shell_do_help(int argc, char **argv)
{
	const struct shell_cmd *cmds[64];

	if (argc > 2)
		return shell_usage(argv[0]);
	if (argc == 2) {
		const struct shell_cmd *c = shell_cmd_find(argv[1]);
		if (c == NULL)
			return shell_error(argv[0], "no such command: %s", argv[1]);
		kprintf("usage: %s\n  %s\n", c->sc_usage, c->sc_help);
		return SHELL_OK;
	}
	int n = shell_cmds_sorted(cmds, (int)ARRAY_SIZE(cmds));
	for (int i = 0; i < n; i++)
		kprintf("  %-30s %s\n", cmds[i]->sc_usage, cmds[i]->sc_help);
	return SHELL_OK;
}
SHELL_COMMAND(help, shell_do_help, "help [COMMAND]", "list the commands, or describe one");

static int shell_do_echo(int argc, char **argv)
{
	int i = 1;
	bool newline = true;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		newline = false;
		i++;
	}
	for (; i < argc; i++) {                     /* not kprintf: words may be long */
		kstdout_write(argv[i], strlen(argv[i]));
		if (i + 1 < argc)
			kstdout_write(" ", 1);
	}
	if (newline)
		kstdout_write("\n", 1);
	return SHELL_OK;
}
SHELL_COMMAND(echo, shell_do_echo, "echo [-n] [WORD...]", "print the words");

/* --- time and threads ---------------------------------------------------- */

/* shell_fmt_secs: ns as "12.345" (seconds, milliseconds). */
static char *shell_fmt_secs(uint64_t ns, char *buf, size_t size)
{
	ksnprintf(buf, size, "%lu.%03lu", (uint64_t)(ns / NSEC_PER_SEC),
	          (uint64_t)(ns % NSEC_PER_SEC / NSEC_PER_MSEC));
	return buf;
}

static int shell_do_uptime(int argc, char **argv)
{
	char secs[32];
	struct thread_info one;

	if (argc != 1)
		return shell_usage(argv[0]);
	uint64_t now = ktime_ns();
	uint64_t s = (uint64_t)(now / NSEC_PER_SEC);
	kprintf("up %s s (%lu:%02lu:%02lu), %d threads\n", shell_fmt_secs(now, secs, sizeof(secs)),
	        s / 3600, s / 60 % 60, s % 60, thread_list(&one, 1));
	return SHELL_OK;
}
SHELL_COMMAND(uptime, shell_do_uptime, "uptime", "time since boot and number of threads");

static int shell_do_sleep(int argc, char **argv)
{
	uint64_t secs;

	if (argc != 2 || !kstrtou64(argv[1], &secs) || secs > 1000000)
		return shell_usage(argv[0]);
	return shell_sleep_ns(secs * NSEC_PER_SEC) ? SHELL_OK : SHELL_INTERRUPTED;
}
SHELL_COMMAND(sleep, shell_do_sleep, "sleep SECONDS", "wait (Ctrl-C interrupts)");

static void shell_ps_print(const struct thread_info *ti)
{
	char time[32];

	kprintf("%5lu  %-20s %-9s %3d %12s\n", ti->ti_tid, ti->ti_name,
	        thread_state_name(ti->ti_state), ti->ti_cpu,
	        shell_fmt_secs(ti->ti_cputime, time, sizeof(time)));
}

static int shell_do_ps(int argc, char **argv)
{
	if (argc != 1)
		return shell_usage(argv[0]);
	struct thread_info *tis = kmalloc(PS_MAX_THREADS * sizeof(*tis));
	if (tis == NULL)
		return shell_error(argv[0], "out of memory");
	int n = MIN(thread_list(tis, PS_MAX_THREADS), PS_MAX_THREADS);
	shell_ps_procs();                       /* user processes first, if any (shell_proc.c) */
	kprintf("%5s  %-20s %-9s %3s %12s\n", "TID", "NAME", "STATE", "CPU", "TIME");
	for (int i = 0; i < n; i++)
		shell_ps_print(&tis[i]);
	kfree(tis);
	return SHELL_OK;
}
SHELL_COMMAND(ps, shell_do_ps, "ps", "list processes, then threads: id, name, state, cpu, cpu time");

/* --- memory and symbols -------------------------------------------------- */

/* shell_mem_slabs: one line of the slab caches: size:objects in use/objects held. */
static void shell_mem_slabs(void)
{
	struct kheap_cache_stats cs;

	kprintf("slabs:   ");
	for (int i = 0; kheap_cache_stats(i, &cs); i++)
		kprintf(" %lu:%lu/%lu", cs.kcs_size, cs.kcs_inuse, cs.kcs_capacity);
	kprintf("\n");
}

static int shell_do_mem(int argc, char **argv)
{
	struct pmem_stats ps;
	struct kheap_stats hs;

	if (argc != 1)
		return shell_usage(argv[0]);
	pmem_stats(&ps);
	kheap_stats(&hs);
	kprintf("physical: %lu KiB total, %lu KiB free, %lu KiB kernel image\n",
	        ps.ps_total / 1024, ps.ps_free / 1024, ps.ps_kernel / 1024);
	kprintf("heap:     %lu bytes in use, %lu pages, %lu allocs, %lu frees, %lu failures\n",
	        hs.hs_inuse, hs.hs_pages, hs.hs_allocs, hs.hs_frees, hs.hs_failures);
	kprintf("pages:    %lu slab, %lu large, %lu page tables, %lu arena tags, %lu in quarantine\n",
	        hs.hs_slab_pages, hs.hs_large_pages, hs.hs_tables, hs.hs_tag_pages,
	        hs.hs_quarantine_pages);
	kprintf("arena:    %lu KiB of %lu MiB allocated, %lu segments, largest free %lu MiB, "
	        "%lu KiB in quarantine\n", hs.hs_va_used / 1024, hs.hs_arena_total >> 20,
	        hs.hs_arena_segs, hs.hs_arena_largest >> 20, hs.hs_quarantine / 1024);
	shell_mem_slabs();
	return SHELL_OK;
}
SHELL_COMMAND(mem, shell_do_mem, "mem", "physical memory, the kernel heap's pages, arena and slab caches");

static void shell_sym_print(const struct ksym *ks)
{
	kprintf("%s = 0x%lx (%s, size 0x%lx)\n", ks->ks_name, ks->ks_addr,
	        ks->ks_func ? "function" : "object", ks->ks_size);
}

static int shell_do_sym(int argc, char **argv)
{
	struct ksym ks;
	uint64_t addr;
	char where[128];

	if (argc != 2)
		return shell_usage(argv[0]);
	if (kstrtou64(argv[1], &addr)) {
		if (!ksym_lookup_addr(addr, &ks))
			return shell_error(argv[0], "no symbol at 0x%lx", addr);
		kprintf("0x%lx = %s\n", addr, ksym_format(addr, where, sizeof(where)));
	} else if (!ksym_lookup_name(argv[1], &ks)) {
		return shell_error(argv[0], "%s: no such symbol", argv[1]);
	}
	shell_sym_print(&ks);
	return SHELL_OK;
}
SHELL_COMMAND(sym, shell_do_sym, "sym ADDR|NAME", "look up a kernel symbol by address or name");

/* --- the machine --------------------------------------------------------- */

static int shell_do_halt(int argc, char **argv)
{
	if (argc != 1)
		return shell_usage(argv[0]);
	kprintf("halting\n");
	arch_poweroff(POWEROFF_OK);
}
SHELL_COMMAND(halt, shell_do_halt, "halt", "power off (QEMU exits with status 33)");

static int shell_do_reboot(int argc, char **argv)
{
	if (argc != 1)
		return shell_usage(argv[0]);
	kprintf("rebooting\n");
	arch_reboot();
}
SHELL_COMMAND(reboot, shell_do_reboot, "reboot", "reset the machine");

static const struct {
	const char *cf_name;
	enum arch_fault cf_kind;
} shell_crash_kinds[] = {
	{ "pagefault", FAULT_PAGE },
	{ "divide", FAULT_DIVIDE },
	{ "ud", FAULT_UD },
	{ "gp", FAULT_GP },
	{ "breakpoint", FAULT_BREAKPOINT },
	{ "stack", FAULT_STACK },
};

static int shell_do_crash(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage(argv[0]);
	for (size_t i = 0; i < ARRAY_SIZE(shell_crash_kinds); i++) {
		if (strcmp(argv[1], shell_crash_kinds[i].cf_name) == 0) {
			kprintf("crash: provoking %s\n", argv[1]);
			arch_fault_test(shell_crash_kinds[i].cf_kind);
			return shell_error(argv[0], "%s: the fault did not happen", argv[1]);
		}
	}
	return shell_usage(argv[0]);
}
SHELL_COMMAND(crash, shell_do_crash, "crash KIND",
              "test only: fault on purpose (pagefault divide ud gp breakpoint stack)");
