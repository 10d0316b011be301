/*
 * workload.c - the workload registry, the spawner and the `run` command.
 *
 * Theory.  Workloads are found by name in the "workloads" linker section
 * (WORKLOAD() in workload.h).  `run NAME [N]` parses the optional number in
 * the shell, so bad arguments get a usage error before any thread exists,
 * then wl_spawn() starts a thread whose body, wl_thread_main(), calls the
 * workload and exits with its status.  wl_stop() kills such a thread and
 * reaps it (dtrace -c stops the workload it started that way).  The parameters travel to the new
 * thread in a small heap block that the thread frees.
 *
 * Tests: self-tests wl_registry; tests/unit/shell_cmds_test.c;
 *        tests/e2e/test_workloads.py
 */
#include "console/workloads/workload.h"
#include "console/shell/shell.h"
#include "kernel/klib.h"
#include "kernel/console.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "kernel/time.h"

extern const struct workload __start_workloads[];
extern const struct workload __stop_workloads[];

/* What the new thread needs; allocated by wl_spawn, freed by the thread. */
struct wl_start {
	const struct workload *ws_wl;
	struct wl_params ws_params;
};

int wl_count(void)
{
	return (int)(__stop_workloads - __start_workloads);
}

const struct workload *wl_get(int i)
{
	if (i < 0 || i >= wl_count())
		return NULL;
	return &__start_workloads[i];
}

const struct workload *wl_find(const char *name)
{
	for (int i = 0; i < wl_count(); i++)
		if (strcmp(__start_workloads[i].wl_name, name) == 0)
			return &__start_workloads[i];
	return NULL;
}

bool wl_should_stop(uint64_t deadline_ns)
{
	return thread_should_exit() || (deadline_ns != 0 && ktime_ns() >= deadline_ns);
}

int wl_stop(uint64_t tid)
{
	thread_kill(tid);                   /* false if it has just exited: join says how */
	return thread_join(tid);
}

static void wl_thread_main(void *arg)
{
	struct wl_start *ws = arg;
	const struct workload *w = ws->ws_wl;
	struct wl_params p = ws->ws_params;

	kfree(ws);
	thread_exit(w->wl_main(&p));
}

uint64_t wl_spawn(const struct workload *w, const struct wl_params *p)
{
	struct wl_start *ws = kmalloc(sizeof(*ws));

	if (ws == NULL)
		return 0;
	ws->ws_wl = w;
	ws->ws_params = *p;
	uint64_t tid = thread_spawn(w->wl_name, wl_thread_main, ws);
	if (tid == 0)
		kfree(ws);
	return tid;
}

/* --- the run command ----------------------------------------------------- */

static void wl_list_print(void)
{
	kprintf("workloads (run NAME [N]; without N they run until killed):\n");
	for (int i = 0; i < wl_count(); i++)
		kprintf("  %-20s %s\n", wl_get(i)->wl_usage, wl_get(i)->wl_help);
}

static int wl_do_run(int argc, char **argv)
{
	struct wl_params p = { .wp_arg = 0, .wp_given = false };

	if (argc == 1) {
		wl_list_print();
		return SHELL_OK;
	}
	const struct workload *w = wl_find(argv[1]);
	if (w == NULL)
		return shell_error(argv[0], "%s: no such workload (try 'run')", argv[1]);
	if (argc > 3 || (argc == 3 && !kstrtou64(argv[2], &p.wp_arg))) {
		kprintf_err("usage: run %s\n", w->wl_usage);
		return SHELL_USAGE;
	}
	p.wp_given = (argc == 3);
	uint64_t tid = wl_spawn(w, &p);
	if (tid == 0)
		return shell_error(argv[0], "%s: cannot create a thread", argv[1]);
	kprintf("%s: tid %lu\n", w->wl_name, tid);
	return SHELL_OK;
}
SHELL_COMMAND(run, wl_do_run, "run [WORKLOAD [N]]", "start a workload thread; alone, list them");
