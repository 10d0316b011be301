/*
 * shell_proc.c - running a program: a command word with a '/' in it.
 *
 * `/bin/hello a b` starts the boot archive's /bin/hello as a process with
 * argv {"/bin/hello", "a", "b"}, in the foreground: the shell waits for it,
 * its output goes to the console, and its exit status is the command's.
 * A process killed by a signal is reported as a Unix shell reports it
 * ("Segmentation fault"), with, on the console, the faulting address and
 * user pc (symbolized from the program's .symtab when it has one), and the status is 128 + the signal.  Ctrl-C while it runs sends
 * it SIGINT (the console has echoed the "^C"); followed by `&` it runs in
 * the background instead, as a job (shell_pipe.c, shell_jobs.c).  A death by
 * SIGPIPE is not reported.  Programs run as root (uid 0, gid 0); `runas
 * UID[:GID] /bin/prog args` runs one as another user (kernel/cred.h), as
 * su would (also as a pipeline's stage or with `&`, shell_pipe.c).  `procs` lists processes (with their UID) and their threads,
 * `kill [-SIG] PID` signals them (`kill -t TID` stops a kernel thread),
 * and `pmem` counts them and the pages they hold.  Kernel only (the host tests of the shell use a fake,
 * tests/unit/shell_fake_kernel.c).  Thread context, the shell's thread.
 *
 * Tests: tests/e2e/test_proc.py, tests/e2e/test_commands.py, tests/e2e/test_cred.py
 */
#include "arch/arch.h"
#include "kernel/console.h"
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "console/shell/shell.h"

#define SHELL_WAIT_SLICE_NS (20 * NSEC_PER_MSEC)

int shell_spawn_error(const char *path, int err, const char *why)
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
	if (sig == SIGPIPE)
		return 128 + sig;                  /* its reader went away: sh says nothing */
	if (sig == SIGINT)
		return SHELL_INTERRUPTED;          /* the console echoed "^C" and the newline */
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
	int pid = proc_spawn(argv[0], argc, argv, why, sizeof(why));

	if (pid < 0)
		return shell_spawn_error(argv[0], pid, why);
	return shell_program_wait(argv[0], pid);
}

/*
 * runas_ids: "UID" or "UID:GID" (the group defaults to the user's number,
 * as a user's own group); each at most RUNAS_ID_MAX: newlib's uid_t, what
 * programs see, is 16 bits, and (uid_t)-1 means "no id".
 */
#define RUNAS_ID_MAX 65534u
static bool runas_ids(const char *s, struct cred *c)
{
	char buf[24];
	uint64_t uid, gid;

	if (kstrlcpy(buf, s, sizeof(buf)) >= sizeof(buf))
		return false;
	char *colon = strchr(buf, ':');
	if (colon != NULL)
		*colon = '\0';
	if (!kstrtou64(buf, &uid) || uid > RUNAS_ID_MAX)
		return false;
	gid = uid;
	if (colon != NULL && (!kstrtou64(colon + 1, &gid) || gid > RUNAS_ID_MAX))
		return false;
	*c = cred_user((uint32_t)uid, (uint32_t)gid);
	return true;
}

int shell_runas_check(int argc, char **argv, struct cred *c)
{
	if (argc < 3)
		return shell_usage(argv[0]);
	if (!runas_ids(argv[1], c))
		return shell_error(argv[0], "%s: not UID or UID:GID (numbers, 0 to %u)", argv[1], RUNAS_ID_MAX);
	if (strchr(argv[2], '/') == NULL)
		return shell_error(argv[0], "%s: not a program (a path such as /bin/%s)", argv[2], argv[2]);
	return SHELL_OK;
}

/*
 * runas UID[:GID] PROGRAM [ARGS]: run a program in the foreground with
 * every user id UID, group id GID: created held, given the ids, released
 * (proc:::create still sees root's, as a fork before su's setuid would).
 * In a pipeline or with `&` shell_pipe.c does the same for its stage.
 */
static int shell_do_runas(int argc, char **argv)
{
	struct cred c;
	char why[160];
	int r = shell_runas_check(argc, argv, &c);

	if (r != SHELL_OK)
		return r;
	int pid = proc_spawn_held(argv[2], argc - 2, argv + 2, why, sizeof(why));
	if (pid < 0)
		return shell_spawn_error(argv[2], pid, why);
	proc_cred_set(pid, &c);
	proc_release(pid);
	return shell_program_wait(argv[2], pid);
}
SHELL_COMMAND(runas, shell_do_runas, "runas UID[:GID] PROG [ARG...]",
              "run a program as user UID, group GID (default: UID); others run as root");

int shell_program_reap(const char *path, int pid)
{
	struct proc_fault_info fi;
	int status = 0;

	if (proc_wait(pid, &status, &fi) < 0)
		return SHELL_ERR;
	return shell_proc_report(path, pid, status, &fi);
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

/*
 * shell_proc_state: ps's state letter for a process, as Solaris's ps(1):
 * Z zombie, T stopped (DTrace's stop(), until SIGCONT), and for a live
 * one its thread's: O on a processor, R runnable (waiting for one), S
 * sleeping (in sleep, wait, a read, ...).
 */
static char shell_proc_state(const struct proc_info *pi, const struct thread_info *tis, int nt)
{
	if (pi->pi_state == 'Z' || pi->pi_state == 'T')
		return pi->pi_state;
	for (int k = 0; k < nt; k++) {
		if (tis[k].ti_tid != pi->pi_tid)
			continue;
		switch (tis[k].ti_state) {
		case TS_RUNNING:  return 'O';
		case TS_SLEEPING: return 'S';
		case TS_ZOMBIE:   return 'Z';      /* exiting: the process follows */
		default:          return 'R';
		}
	}
	return 'R';                            /* started, its thread not listed yet */
}

/*
 * shell_procs_print: the process table, UID (the real one) first as in
 * Solaris's ps -f, with the TID column if tids; how many processes.
 */
static int shell_procs_print(bool tids)
{
	static struct proc_info pis[SHELL_PROCS_MAX];
	static struct thread_info tis[SHELL_PS_THREADS];
	int n = MIN(proc_list(pis, SHELL_PROCS_MAX), SHELL_PROCS_MAX);
	int nt = MIN(thread_list(tis, SHELL_PS_THREADS), SHELL_PS_THREADS);

	if (tids)
		kprintf("%5s %5s %5s %1s %5s %10s  %s\n", "UID", "PID", "PPID", "S", "TID", "TIME", "COMMAND");
	else
		kprintf("%5s %5s %5s %1s %10s  %s\n", "UID", "PID", "PPID", "S", "TIME", "COMMAND");
	for (int i = 0; i < n; i++) {
		uint64_t ns = shell_proc_time(tis, nt, pis[i].pi_tid);
		kprintf("%5u %5d %5d %c ", pis[i].pi_uid, pis[i].pi_pid, pis[i].pi_ppid,
		        shell_proc_state(&pis[i], tis, nt));
		if (tids)
			kprintf("%5lu ", pis[i].pi_tid);
		kprintf("%6lu.%03lu  %s\n", ns / NSEC_PER_SEC, (ns % NSEC_PER_SEC) / NSEC_PER_MSEC,
		        pis[i].pi_execname);
	}
	return n;
}

void shell_ps_procs(void)
{
	shell_procs_print(false);
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
SHELL_COMMAND(procs, shell_do_procs, "procs", "list processes: uid, pid, parent, state, thread, cpu time");

/* --- kill ---------------------------------------------------------------------------- */

static const struct {
	const char *ks_name;
	int ks_sig;
} kill_sigs[] = {
	{ "HUP", 1 }, { "INT", SIGINT }, { "QUIT", 3 }, { "ILL", SIGILL }, { "TRAP", SIGTRAP },
	{ "ABRT", 6 }, { "BUS", SIGBUS }, { "FPE", SIGFPE }, { "KILL", SIGKILL }, { "USR1", 10 },
	{ "SEGV", SIGSEGV }, { "USR2", 12 }, { "PIPE", SIGPIPE }, { "ALRM", 14 }, { "TERM", SIGTERM },
	{ "CONT", SIGCONT },
};

/* kill_sig_parse: "9", "KILL", "SIGKILL" (after the '-') as a signal number, or -1. */
static int kill_sig_parse(const char *s)
{
	uint64_t n;

	if (kstrtou64(s, &n))
		return n > 0 && n < NSIG ? (int)n : -1;
	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (size_t i = 0; i < ARRAY_SIZE(kill_sigs); i++)
		if (strcmp(s, kill_sigs[i].ks_name) == 0)
			return kill_sigs[i].ks_sig;
	return -1;
}

/* kill -t TID: ask a kernel thread (a workload) to exit. */
static int shell_kill_thread(const char *argv0, const char *arg)
{
	uint64_t tid;

	if (!kstrtou64(arg, &tid))
		return shell_error(argv0, "%s: not a thread id", arg);
	if (tid == curthread()->t_tid)
		return shell_error(argv0, "%lu: refusing to kill the shell", tid);
	if (!thread_kill(tid))
		return shell_error(argv0, "%lu: no such thread", tid);
	return SHELL_OK;
}

/* kill [-SIG] PID...: send a signal (SIGTERM by default) to processes; kill -t TID for a kernel thread. */
static int shell_do_kill(int argc, char **argv)
{
	int sig = SIGTERM, i = 1, status = SHELL_OK;

	if (argc == 3 && strcmp(argv[1], "-t") == 0)
		return shell_kill_thread(argv[0], argv[2]);
	if (argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0') {
		if ((sig = kill_sig_parse(argv[1] + 1)) < 0)
			return shell_error(argv[0], "%s: unknown signal (try -9, -KILL, -INT, -TERM)", argv[1] + 1);
		i++;
	}
	if (i == argc)
		return shell_usage(argv[0]);
	for (; i < argc; i++) {
		uint64_t pid;
		if (!kstrtou64(argv[i], &pid) || pid == 0 || pid > 0x7fffffff) {
			status = shell_error(argv[0], "%s: arguments must be process ids", argv[i]);
			continue;
		}
		if (proc_kill((int)pid, sig) < 0)
			status = shell_error(argv[0], "(%lu) - No such process", pid);
	}
	return status;
}
SHELL_COMMAND(kill, shell_do_kill, "kill [-SIG] PID... | kill -t TID",
              "signal processes (default TERM; -9, -KILL, -INT, ...), or stop a kernel thread");

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
