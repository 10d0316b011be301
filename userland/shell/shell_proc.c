/*
 * shell_proc.c - running a program: a command word with a '/' in it.
 *
 * `/bin/hello a b` starts the boot archive's /bin/hello as a process with
 * argv {"/bin/hello", "a", "b"}, in the foreground: the shell waits for it,
 * its output goes to the console, and its exit status is the command's.
 * A process killed by a signal is reported as a Unix shell reports it
 * ("Segmentation fault"), with, on the console, the faulting address and
 * user pc (symbolized from the program's .symtab when it has one), and the status is 128 + the signal.  Ctrl-C while it runs sends
 * it SIGINT; a trailing `&` word runs it in the background instead (its
 * pid is printed and nobody waits for it).  `procs` lists processes (the
 * TID column is what `kill TID` takes) and `pmem` counts them and the
 * pages they hold.  Kernel only (the host tests of the shell use a fake,
 * tests/unit/shell_fake_kernel.c).  Thread context, the shell's thread.
 */
#include "arch/arch.h"
#include "kernel/console.h"
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "userland/shell/shell.h"

#define SHELL_WAIT_SLICE_NS (20 * NSEC_PER_MSEC)

/* shell_spawn_error: say why path did not start; the status, as sh gives it. */
static int shell_spawn_error(const char *path, int err, const char *why)
{
	if (err == -ENOENT) {
		kprintf_err("sonde: %s: No such file or directory\n", path);
		return SHELL_NOTFOUND;
	}
	if (err == -ENOEXEC)
		kprintf_err("sonde: %s: cannot execute: %s\n", path, why);
	else if (err == -E2BIG)
		kprintf_err("sonde: %s: Argument list too long\n", path);
	else
		kprintf_err("sonde: %s: cannot start (errno %d)\n", path, -err);
	return 126;
}

/* shell_proc_wait: wait for pid, sending it SIGINT on Ctrl-C. */
static int shell_proc_wait(int pid, struct proc_fault_info *fi)
{
	int status;
	bool sent = false;

	while (!proc_wait_done(pid)) {
		if (!sent && (console_interrupted() || thread_should_exit())) {
			proc_kill(pid, SIGINT);
			sent = true;
		}
		thread_sleep_ns(SHELL_WAIT_SLICE_NS);
	}
	proc_wait(pid, &status, fi);
	return status;
}

static int shell_proc_report(const char *path, int pid, int status, const struct proc_fault_info *fi)
{
	if (PROC_EXITED(status))
		return PROC_EXITCODE(status);
	int sig = PROC_TERMSIG(status);
	if (sig == SIGINT) {
		kprintf("\n");
		return SHELL_INTERRUPTED;
	}
	kprintf_err("%s\n", proc_signal_name(sig));
	if (fi->pf_signal != 0 && fi->pf_pc != 0)
		kprintf("%s: pid %d: %s at address 0x%lx, pc 0x%lx%s%s%s\n", path, pid,
		        proc_signal_name(sig), fi->pf_addr, fi->pf_pc, fi->pf_sym[0] ? " (" : "",
		        fi->pf_sym, fi->pf_sym[0] ? ")" : "");
	return 128 + sig;
}

int shell_run_program(int argc, char **argv)
{
	char why[160];
	bool background = argc > 1 && strcmp(argv[argc - 1], "&") == 0;

	if (background)
		argv[--argc] = NULL;
	int pid = proc_spawn(argv[0], argc, argv, why, sizeof(why));
	if (pid < 0)
		return shell_spawn_error(argv[0], pid, why);
	if (background) {
		proc_detach(pid);
		kprintf("[%d]\n", pid);
		return SHELL_OK;
	}
	return shell_program_wait(argv[0], pid);
}

int shell_program_wait(const char *path, int pid)
{
	struct proc_fault_info fi;
	int status = shell_proc_wait(pid, &fi);

	return shell_proc_report(path, pid, status, &fi);
}

#define SHELL_PROCS_MAX PROC_MAX
#define SHELL_PS_THREADS 256

/* shell_proc_time: the CPU time of thread tid, from a thread listing. */
static uint64_t shell_proc_time(const struct thread_info *tis, int nt, uint64_t tid)
{
	for (int k = 0; k < nt; k++)
		if (tis[k].ti_tid == tid)
			return tis[k].ti_cputime;
	return 0;
}

/* shell_procs_print: the process table (with the TID column if tids); how many processes. */
static int shell_procs_print(bool tids)
{
	static struct proc_info pis[SHELL_PROCS_MAX];
	static struct thread_info tis[SHELL_PS_THREADS];
	int n = MIN(proc_list(pis, SHELL_PROCS_MAX), SHELL_PROCS_MAX);
	int nt = MIN(thread_list(tis, SHELL_PS_THREADS), SHELL_PS_THREADS);

	if (n == 0 && !tids)
		return 0;
	if (tids)
		kprintf("%5s %5s %1s %5s %10s  %s\n", "PID", "PPID", "S", "TID", "TIME", "COMMAND");
	else
		kprintf("%5s %5s %1s %10s  %s\n", "PID", "PPID", "S", "TIME", "COMMAND");
	for (int i = 0; i < n; i++) {
		uint64_t ns = shell_proc_time(tis, nt, pis[i].pi_tid);
		kprintf("%5d %5d %c ", pis[i].pi_pid, pis[i].pi_ppid, pis[i].pi_state);
		if (tids)
			kprintf("%5lu ", pis[i].pi_tid);
		kprintf("%6lu.%03lu  %s\n", ns / NSEC_PER_SEC, (ns % NSEC_PER_SEC) / NSEC_PER_MSEC,
		        pis[i].pi_execname);
	}
	return n;
}

void shell_ps_procs(void)
{
	if (shell_procs_print(false) > 0)
		kprintf("\n");
}

/* procs: the process table, with each process's thread (its TID for `kill`) and CPU time. */
static int shell_do_procs(int argc, char **argv)
{
	if (argc != 1)
		return shell_usage(argv[0]);
	shell_procs_print(true);
	return SHELL_OK;
}
SHELL_COMMAND(procs, shell_do_procs, "procs", "list processes: pid, parent, state, thread, cpu time");

/* pmem: what processes hold: with none running, every count is 0 (no page leaks). */
static int shell_do_pmem(int argc, char **argv)
{
	int zombies;

	if (argc != 1)
		return shell_usage(argv[0]);
	int n = proc_count(&zombies);
	kprintf("processes: %d (%d zombies), %lu pages held\n", n, zombies, arch_user_pages());
	return SHELL_OK;
}
SHELL_COMMAND(pmem, shell_do_pmem, "pmem", "processes and the pages their address spaces hold");
