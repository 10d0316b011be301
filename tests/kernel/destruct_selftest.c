/*
 * destruct_selftest.c - in-kernel self-tests of the destructive actions'
 * rules (trace/destruct.c): the framework refuses a destructive program in a
 * state opened without -w even when the program hides it (a program that did
 * not come from the compiler, or lies about itself), and chill() is bounded
 * per CPU across consumers.
 */
#include "arch/arch.h"
#include "dlang/dt_prog.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "trace/dtrace.h"

#define ARENA (256UL << 10)

static dtrace_id_t dst_probe;

static int dst_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	return 0;
}

static void dst_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
}

static const dtrace_pops_t dst_ops = { .dtps_enable = dst_enable, .dtps_disable = dst_disable };

static void dst_provider(void)
{
	if (dst_probe == 0) {
		dtrace_provider_t *p = dtrace_register("destruct", &dst_ops, NULL);
		if (p != NULL)
			dst_probe = dtrace_probe_create(p, "kernel", "dst", "hit", 0, NULL);
	}
}

/* dst_compile: src compiled with -w into arena; NULL on failure. */
static dt_prog *dst_compile(const char *src, void *arena)
{
	dt_opts co = { .o_destructive = true, .o_target = -1 };
	dt_prog *prog = NULL;
	dt_error err;

	dst_provider();
	if (arena == NULL || dt_compile(src, strlen(src), &co, arena, ARENA, &prog, &err) != 0) {
		kprintf("# compile: %s\n", arena ? err.de_msg : "no memory");
		return NULL;
	}
	return prog;
}

/* dst_lie: the program says nothing of being destructive. */
static void dst_lie(dt_prog *prog)
{
	prog->dp_destructive = false;
	for (uint32_t c = 0; c < prog->dp_nclauses; c++)
		prog->dp_clauses[c].cl_destructive = false;
}

/* dst_enable_rc: dtrace_enable's result for prog in a state with or without -w. */
static int dst_enable_rc(const dt_prog *prog, bool destructive)
{
	dtrace_optvals_t o;
	dtrace_state_t *s;
	char eb[128];

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_aggsize = 4096;
	o.dov_destructive = destructive;
	if (dtrace_open(&o, &s) != 0)
		return 1;
	int rc = dtrace_enable(s, prog, NULL, eb, sizeof(eb));
	dtrace_close(s);
	return rc;
}

SELFTEST(destruct_actions_need_w_in_the_kernel)
{
	static const char *const srcs[] = {
		"destruct:::hit { chill(1); }", "destruct:::hit { raise(9); }",
		"destruct:::hit { stop(); }", "destruct:::hit { panic(); }",
		"destruct:::hit { breakpoint(); }", "destruct:::hit { system(\"ps\"); }",
	};
	void *arena = kmalloc(ARENA);

	for (size_t i = 0; i < ARRAY_SIZE(srcs); i++) {
		dt_prog *prog = dst_compile(srcs[i], arena);
		ST_ASSERT(prog != NULL);
		if (prog == NULL)
			continue;
		dst_lie(prog);
		ST_ASSERT(dst_enable_rc(prog, false) == DTRACE_EPERM);
		ST_ASSERT(dst_enable_rc(prog, true) == 0);
	}
	kfree(arena);
}

/* A destructive subroutine is refused by the kernel's validator without -w. */
SELFTEST(destruct_subroutines_need_w_in_the_kernel)
{
	static const char *const srcs[] = {
		"destruct:::hit { copyout(0, 0, 0); }",
		"destruct:::hit { copyoutstr(\"x\", 0, 2); }",
	};
	void *arena = kmalloc(ARENA);

	for (size_t i = 0; i < ARRAY_SIZE(srcs); i++) {
		dt_prog *prog = dst_compile(srcs[i], arena);
		ST_ASSERT(prog != NULL);
		if (prog == NULL)
			continue;
		dst_lie(prog);
		int rc = dst_enable_rc(prog, false);
		ST_ASSERT(rc == DTRACE_EDIF || rc == DTRACE_EPERM);
		ST_ASSERT(dst_enable_rc(prog, true) == 0);
	}
	kfree(arena);
}

/*
 * Two consumers chill 300 ms each on one firing of one probe on one CPU:
 * the second would go past 500 ms in the interval and fails (one error),
 * whoever asked: the bound is the CPU's, not the consumer's.
 */
SELFTEST(destruct_chill_bounded_per_cpu_across_consumers)
{
	void *arena = kmalloc(ARENA);
	dt_prog *prog = dst_compile("destruct:::hit { chill(300000000); }", arena);
	dtrace_state_t *s[2] = { NULL, NULL };
	dtrace_status_t st[2];
	dtrace_optvals_t o;
	char eb[128];

	ST_ASSERT(prog != NULL);
	if (prog == NULL)
		goto out;
	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_aggsize = 4096;
	o.dov_destructive = true;
	for (int i = 0; i < 2; i++)
		ST_ASSERT(dtrace_open(&o, &s[i]) == 0 &&
		          dtrace_enable(s[i], prog, NULL, eb, sizeof(eb)) == 0 && dtrace_go(s[i]) == 0);
	uint64_t flags = arch_irq_save();
	dtrace_probe(dst_probe, 0, 0, 0, 0, 0, 0);
	arch_irq_restore(flags);
	dtrace_status_get(s[0], &st[0]);
	dtrace_status_get(s[1], &st[1]);
	ST_ASSERT(st[0].dst_errors + st[1].dst_errors == 1);
	for (int i = 0; i < 2; i++)
		dtrace_close(s[i]);
out:
	kfree(arena);
}
