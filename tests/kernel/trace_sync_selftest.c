/*
 * trace_sync_selftest.c - in-kernel self-test of teardown against probe
 * context on other CPUs (a firing must never outlive its enabling).
 *
 * Three CPUs (as many as there are, beyond the first) fire the same probes
 * in a loop while CPU 0 opens, enables, runs and closes consumers on them,
 * over and over.  Closing frees each consumer's ECBs, buffers, aggregations
 * and the state itself while those CPUs may be inside dtrace_probe() walking
 * the chain; with the heap poisoning freed blocks, a firing that still held
 * a freed ECB reads a non-canonical pointer and the kernel faults.  The test
 * passes only if nothing faults, the other CPUs' firings reached the
 * consumers (so the race was run), and the heap is back where it started.
 * On one CPU it passes trivially.
 */
#include "arch/arch.h"
#include "dlang/dt_prog.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "trace/dtrace.h"
#include "trace/provider.h"

#define SYNC_ROUNDS   150
#define SYNC_FIRERS   3
#define SYNC_ARENA    (256UL << 10)

static dtrace_id_t sync_probe;
static volatile bool sync_firing;
static volatile int sync_firers_up;

static void sync_provider(void)
{
	static const dtrace_pops_t ops = { .dtps_provide = NULL };

	if (sync_probe == 0) {
		dtrace_provider_t *p = dtrace_register("synctest", &ops, NULL);
		if (p != NULL)
			sync_probe = dtrace_probe_create(p, "kernel", "sync", "hit", 0, NULL);
	}
}

/* sync_firer: on CPU arg, fire the probe until told to stop, interrupts on in between. */
static void sync_firer(void *arg)
{
	thread_bind((int)(uintptr_t)arg);
	__atomic_add_fetch(&sync_firers_up, 1, __ATOMIC_RELAXED);
	for (uint64_t i = 0; __atomic_load_n(&sync_firing, __ATOMIC_ACQUIRE); i++)
		dtrace_probe(sync_probe, i, 0, 0, 0, 0, 0);
}

/* sync_round: one consumer's whole life; returns the records CPU 1 wrote for it. */
static long sync_round(const dt_prog *prog, uint8_t *buf, size_t bufsize, bool *ok)
{
	dtrace_optvals_t o;
	dtrace_state_t *s;
	char eb[128];
	long n = 0;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_aggsize = 4096;
	o.dov_dynvarsize = 4096;
	if (dtrace_open(&o, &s) != 0) {
		*ok = false;
		return 0;
	}
	if (dtrace_enable(s, prog, NULL, eb, sizeof(eb)) != 0 || dtrace_go(s) != 0)
		*ok = false;
	thread_yield();                             /* let the other CPUs fire into it */
	if (ncpus > 1 && *ok)
		n = dtrace_buffer_snapshot(s, 1, buf, bufsize);
	dtrace_close(s);
	return n > 0 ? n : 0;
}

SELFTEST(trace_sync_close_while_firing)
{
	static const char src[] =
		"synctest:::hit { trace(arg0); @c[arg0 & 3] = count(); }\n"
		"synctest:::hit /arg0 & 1/ { @s = sum(arg0); trace(arg0 * 2); }\n"
		"synctest:::hit { @m = max(arg0); }\n";
	struct kheap_stats before, after;
	void *arena = kmalloc(SYNC_ARENA);
	uint8_t *buf = kmalloc(2 * 4096 + 64);
	uint64_t tids[SYNC_FIRERS] = { 0 };
	int nfirers = MIN(ncpus - 1, SYNC_FIRERS);
	dt_prog *prog = NULL;
	dt_error err;
	bool ok = true;
	long seen = 0;

	sync_provider();
	ST_ASSERT(sync_probe != 0 && arena != NULL && buf != NULL);
	ST_ASSERT(dt_compile(src, strlen(src), NULL, arena, SYNC_ARENA, &prog, &err) == 0);
	if (prog == NULL || buf == NULL)
		return;
	thread_bind(0);
	kheap_poison_set(true);
	sync_firers_up = 0;
	sync_firing = true;
	for (int i = 0; i < nfirers; i++)
		tids[i] = thread_spawn("st-firer", sync_firer, (void *)(uintptr_t)(i + 1));
	while (__atomic_load_n(&sync_firers_up, __ATOMIC_RELAXED) < nfirers)
		thread_yield();
	kheap_stats(&before);
	for (int r = 0; r < SYNC_ROUNDS && ok; r++)
		seen += sync_round(prog, buf, 2 * 4096 + 64, &ok);
	kheap_stats(&after);
	__atomic_store_n(&sync_firing, false, __ATOMIC_RELEASE);
	for (int i = 0; i < nfirers; i++)
		if (tids[i] != 0)
			thread_join(tids[i]);
	kheap_poison_set(false);
	thread_bind(-1);
	ST_ASSERT(ok);
	ST_ASSERT(ncpus == 1 || seen > 0);          /* CPU 1 fired into live consumers */
	ST_ASSERT(after.hs_inuse == before.hs_inuse);
	kfree(arena);
	kfree(buf);
}
