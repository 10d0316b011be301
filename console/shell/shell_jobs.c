/*
 * shell_jobs.c - background jobs: `cmd &`, `jobs`, `wait`, `fg`.
 *
 * Theory.  A pipeline followed by `&` (shell_pipe.c; `a & b` runs b at
 * once) becomes a job: a number (the lowest free, from 1), its processes
 * and its command line.  The shell prints "[N] PID" (the last process's pid), as sh does,
 * and stays the processes' waiter: a finished job's processes are zombies
 * until the shell collects them, which it does before each prompt
 * (shell_jobs_notify, printing "[N]+  Done  cmd" or the signal that ended
 * it), in `jobs`, and in `wait`/`fg`, which wait for one job or all of
 * them.  `fg` waits as the foreground does (Ctrl-C sends SIGINT to the
 * job); there is no stopping (no SIGTSTP), so no `bg`.  When the table is
 * full a new background pipeline is detached instead (nobody waits; it is
 * freed at exit) and printed as "[PID]".
 *
 * Context: the shell's thread.  Kernel only (the pretend kernel of the
 * host tests has no processes).
 *
 * Tests: tests/e2e/test_shell_pipes.py
 */
#include "kernel/console.h"
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "console/shell/shell.h"

#define JOBS_MAX 8
#define JOB_PIDS 8
#define JOB_CMD_MAX 80
#define JOB_WAIT_NS (10 * NSEC_PER_MSEC)

struct job {
	int j_npids;                 /* 0: a free slot */
	int j_pids[JOB_PIDS];
	char j_cmd[JOB_CMD_MAX];
};

static struct job jobs[JOBS_MAX];

bool shell_jobs_add(const int *pids, int n, const char *cmd)
{
	for (int i = 0; i < JOBS_MAX; i++) {
		struct job *j = &jobs[i];
		if (j->j_npids != 0)
			continue;
		j->j_npids = MIN(n, JOB_PIDS);
		memcpy(j->j_pids, pids, (size_t)j->j_npids * sizeof(int));
		kstrlcpy(j->j_cmd, cmd, sizeof(j->j_cmd));
		kprintf("[%d] %d\n", i + 1, pids[n - 1]);
		return true;
	}
	return false;
}

/* job_done: have all of j's processes exited? */
static bool job_done(const struct job *j)
{
	for (int k = 0; k < j->j_npids; k++)
		if (!proc_wait_done(j->j_pids[k]))
			return false;
	return true;
}

/* job_reap: collect j's processes (exited), say how it ended, free the slot; the last one's status. */
static int job_reap(int n, struct job *j, bool say)
{
	int status = 0, last = 0;

	for (int k = 0; k < j->j_npids; k++)
		if (proc_wait(j->j_pids[k], &status, NULL) >= 0)
			last = status;
	if (say && PROC_EXITED(last) && PROC_EXITCODE(last) == 0)
		kprintf("[%d]+  Done                    %s\n", n, j->j_cmd);
	else if (say && PROC_EXITED(last))
		kprintf("[%d]+  Exit %d                  %s\n", n, PROC_EXITCODE(last), j->j_cmd);
	else if (say)
		kprintf("[%d]+  %-22s  %s\n", n, proc_signal_name(PROC_TERMSIG(last)), j->j_cmd);
	j->j_npids = 0;
	return PROC_EXITED(last) ? PROC_EXITCODE(last) : 128 + PROC_TERMSIG(last);
}

void shell_jobs_notify(void)
{
	for (int i = 0; i < JOBS_MAX; i++)
		if (jobs[i].j_npids != 0 && job_done(&jobs[i]))
			job_reap(i + 1, &jobs[i], true);
}

/* job_wait: wait for job n (1-based) to end, Ctrl-C sending SIGINT if fg; its status. */
static int job_wait(int n, bool fg)
{
	struct job *j = &jobs[n - 1];
	bool sent = false;

	while (!job_done(j)) {
		if (console_interrupted() && !sent) {
			for (int k = 0; k < j->j_npids && fg; k++)
				proc_kill(j->j_pids[k], SIGINT);
			sent = true;
			if (!fg)
				return SHELL_INTERRUPTED;
		}
		thread_sleep_ns(JOB_WAIT_NS);
	}
	return job_reap(n, j, false);
}

/* job_arg: "%N" or "N" as a job number with a job, or 0 (message printed). */
static int job_arg(const char *argv0, const char *s)
{
	uint64_t n;

	if (s[0] == '%')
		s++;
	if (!kstrtou64(s, &n) || n < 1 || n > JOBS_MAX || jobs[n - 1].j_npids == 0) {
		shell_error(argv0, "%s: no such job", s);
		return 0;
	}
	return (int)n;
}

static int shell_do_jobs(int argc, char **argv)
{
	if (argc != 1)
		return shell_usage(argv[0]);
	for (int i = 0; i < JOBS_MAX; i++) {
		if (jobs[i].j_npids == 0)
			continue;
		if (job_done(&jobs[i]))
			job_reap(i + 1, &jobs[i], true);
		else
			kprintf("[%d]   Running                 %s\n", i + 1, jobs[i].j_cmd);
	}
	return SHELL_OK;
}
SHELL_COMMAND(jobs, shell_do_jobs, "jobs", "background jobs: running, or done since last said");

static int shell_do_wait(int argc, char **argv)
{
	int status = SHELL_OK;

	if (argc > 2)
		return shell_usage(argv[0]);
	if (argc == 2) {
		int n = job_arg(argv[0], argv[1]);
		return n == 0 ? 127 : job_wait(n, false);
	}
	for (int i = 0; i < JOBS_MAX && status != SHELL_INTERRUPTED; i++)
		if (jobs[i].j_npids != 0)
			status = job_wait(i + 1, false);
	return status == SHELL_INTERRUPTED ? status : SHELL_OK;
}
SHELL_COMMAND(wait, shell_do_wait, "wait [%N]", "wait for a background job, or for all (Ctrl-C stops waiting)");

static int shell_do_fg(int argc, char **argv)
{
	int n = 0;

	if (argc > 2)
		return shell_usage(argv[0]);
	if (argc == 2)
		n = job_arg(argv[0], argv[1]);
	for (int i = JOBS_MAX - 1; i >= 0 && argc == 1 && n == 0; i--)
		if (jobs[i].j_npids != 0)
			n = i + 1;                    /* the newest job */
	if (n == 0)
		return argc == 1 ? shell_error(argv[0], "no current job") : SHELL_ERR;
	kprintf("%s\n", jobs[n - 1].j_cmd);
	return job_wait(n, true);
}
SHELL_COMMAND(fg, shell_do_fg, "fg [%N]", "wait for a background job in the foreground (Ctrl-C interrupts it)");
