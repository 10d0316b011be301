/*
 * selftest.c - run the in-kernel self-tests and report them as TAP.
 *
 * Tests register themselves with SELFTEST() (kernel/selftest.h) into the
 * "selftests" linker section.  Booting with "selftest" on the command line
 * runs each in a thread of its own (so a test may sleep), prints
 * "ok N - name" or "not ok N - name" with the failed assertions as TAP
 * diagnostics, and powers off with status 0 if all passed, 1 if not.
 */
#include "kernel/klib.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"

extern const struct selftest __start_selftests[], __stop_selftests[];

void selftest_fail(struct selftest_ctx *ctx, const char *expr, const char *file, int line)
{
	ctx->st_failed++;
	kprintf("# assertion failed: %s (%s:%d)\n", expr, file, line);
}

struct selftest_run {
	const struct selftest *sr_test;
	struct selftest_ctx sr_ctx;
};

static void selftest_thread(void *arg)
{
	struct selftest_run *run = arg;

	run->sr_test->st_fn(&run->sr_ctx);
}

int selftest_run_all(void)
{
	int n = (int)(__stop_selftests - __start_selftests), failed = 0;

	kprintf("TAP version 13\n1..%d\n", n);
	for (int i = 0; i < n; i++) {
		struct selftest_run run = { .sr_test = &__start_selftests[i] };
		uint64_t tid = thread_spawn(run.sr_test->st_name, selftest_thread, &run);
		if (tid == 0 || thread_join(tid) < 0)
			run.sr_ctx.st_failed++;
		kprintf("%sok %d - %s\n", run.sr_ctx.st_failed ? "not " : "", i + 1, run.sr_test->st_name);
		failed += run.sr_ctx.st_failed != 0;
	}
	kprintf("# %d passed, %d failed\n", n - failed, failed);
	return failed;
}
