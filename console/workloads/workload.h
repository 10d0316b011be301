/*
 * workload.h - built-in workloads: threads that give the tracer something to see.
 *
 * A workload is a function run in a kernel thread of its own, started by the
 * shell's `run NAME [N]` (or by dtrace -c, in its command's thread).  Each
 * takes one optional number (a duration in ms or a count); given one, it
 * ends by itself; without one it runs until stopped (`kill TID`,
 * wl_stop()).  Stopping is a request the workload must honour promptly:
 * it checks wl_should_stop() (or thread_should_exit()) at least every few
 * milliseconds of work, sleeps only with timeouts (a kill also wakes a
 * sleeper), and stops any thread it started before it returns.  Workloads
 * are registered with WORKLOAD() into the "workloads" linker section:
 *
 *   static int wl_spin_main(const struct wl_params *p) { ... return 0; }
 *   WORKLOAD(spin, wl_spin_main, "spin [MS]", "spin the CPU");
 *
 * The helpers a workload calls are marked WL_NOINLINE so that each workload
 * has a call chain a few functions deep for stack() and fbt to show.
 */
#ifndef SONDE_WORKLOAD_H
#define SONDE_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#define WL_NOINLINE __attribute__((noinline))

struct wl_params {
	uint64_t wp_arg;             /* the optional number */
	bool wp_given;               /* false: run until killed */
};

typedef int wl_main_fn(const struct wl_params *p);

struct workload {
	const char *wl_name;         /* also the thread's name */
	wl_main_fn *wl_main;         /* returns the thread's exit status */
	const char *wl_usage;
	const char *wl_help;
};

#define WORKLOAD(name, fn, usage, help) \
	static const struct workload wl_entry_##name \
		__attribute__((used, section("workloads"), aligned(8))) = \
		{ .wl_name = #name, .wl_main = (fn), .wl_usage = (usage), .wl_help = (help) }

/* wl_find: the workload called name, or NULL.  wl_count/wl_get iterate. */
const struct workload *wl_find(const char *name);
int wl_count(void);
const struct workload *wl_get(int i);

/*
 * wl_spawn: start w in a new thread named after it; returns its tid, or 0
 * when memory is short.  Thread context.
 */
uint64_t wl_spawn(const struct workload *w, const struct wl_params *p);

/* wl_should_stop: the workload's thread was killed, or its deadline (ns, 0 = none) passed. */
bool wl_should_stop(uint64_t deadline_ns);

/*
 * wl_stop: ask the workload running in thread tid to stop, wait until its
 * thread has exited and return its status (-1 if there was no such thread
 * and no record of its exit).  Thread context; not the workload's own thread.
 */
int wl_stop(uint64_t tid);

#endif
