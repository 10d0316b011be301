/*
 * prov_util_selftest.c - the providers' self-tests drive real enablings
 * through the consumer interface (trace/dtrace.h), as the dtrace command
 * does, and read the aggregation back (see prov_selftest.h).
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "tests/kernel/prov_selftest.h"
#include "trace/dtrace.h"

#define ARENA_SIZE (1024 * 1024)

static void agg_sum(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                    const int64_t *vals, uint32_t nvals)
{
	(void)aggid;
	(void)key;
	(void)keylen;
	if (nvals > 0)
		*(int64_t *)arg += vals[0];
}

static int64_t run_enabled(const dt_prog *prog, void (*work)(void *), void *arg)
{
	dtrace_optvals_t o;
	dtrace_state_t *s;
	char err[256];
	int64_t total = 0;

	dtrace_opts_default(&o);
	o.dov_bufsize = o.dov_aggsize = 64 * 1024;
	if (dtrace_open(&o, &s) != 0)
		return -1;
	int rc = dtrace_enable(s, prog, NULL, err, sizeof(err));
	if (rc != 0) {
		kprintf("# prov_st_count: enable: %s %s\n", dtrace_errmsg(rc), err);
		dtrace_close(s);
		return -1;
	}
	dtrace_go(s);
	work(arg);
	dtrace_stop(s);
	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++)
		dtrace_agg_snapshot(s, cpu, agg_sum, &total);
	dtrace_close(s);
	return total;
}

int64_t prov_st_count(const char *src, void (*work)(void *), void *arg)
{
	void *arena = kmalloc(ARENA_SIZE);
	dt_prog *prog;
	dt_error err;
	int64_t n = -1;

	if (arena == NULL)
		return -1;
	if (dt_compile(src, strlen(src), NULL, arena, ARENA_SIZE, &prog, &err) == 0)
		n = run_enabled(prog, work, arg);
	else
		kprintf("# prov_st_count: %s: %s\n", src, err.de_msg);
	kfree(arena);
	return n;
}
