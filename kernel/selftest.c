/*
 * selftest.c - run the in-kernel self-tests and report them as TAP.
 *
 * Tests register themselves with SELFTEST() (kernel/selftest.h) into the
 * "selftests" linker section.  Booting with "selftest" on the command line
 * runs each in a thread of its own (so a test may sleep), prints
 * "ok N - name" or "not ok N - name" with the failed assertions as TAP
 * diagnostics, and powers off with status 0 if all passed, 1 if not.
 * "selftest=PATTERN,..." selects tests by name (kernel/selftest.h).
 *
 * Tests: make selftest-check (it is the runner)
 */
#include "kernel/boot.h"
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

unsigned long selftest_param(const char *key, unsigned long def)
{
	char buf[32];
	unsigned long v = 0;

	if (!cmdline_get(boot_info.bi_cmdline, key, buf, sizeof(buf)) || buf[0] == 0)
		return def;
	for (const char *p = buf; *p; p++) {
		if (*p < '0' || *p > '9')
			return def;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	return v;
}

bool selftest_param_str(const char *key, char *buf, unsigned long size)
{
	return cmdline_get(boot_info.bi_cmdline, key, buf, size);
}

/* glob: does s match p ('*' only)? */
static bool glob(const char *p, const char *pe, const char *s)
{
	for (; p < pe; p++, s++) {
		if (*p == '*') {
			for (;; s++) {
				if (glob(p + 1, pe, s))
					return true;
				if (*s == 0)
					return false;
			}
		}
		if (*s != *p)
			return false;
	}
	return *s == 0;
}

/* selected: does the selftest=... list name t (or, with no list, is t not opt-in)? */
static bool selected(const struct selftest *t, const char *list)
{
	if (list[0] == 0)
		return !t->st_optin;
	for (const char *p = list; *p;) {
		const char *e = p;
		while (*e && *e != ',')
			e++;
		if (glob(p, e, t->st_name))
			return true;
		p = *e ? e + 1 : e;
	}
	return false;
}

int selftest_run_all(void)
{
	int all = (int)(__stop_selftests - __start_selftests), n = 0, failed = 0, k = 0;
	char list[256];

	if (!selftest_param_str("selftest", list, sizeof(list)))
		list[0] = 0;
	for (int i = 0; i < all; i++)
		n += selected(&__start_selftests[i], list);
	kprintf("TAP version 13\n1..%d\n", n);
	for (int i = 0; i < all; i++) {
		if (!selected(&__start_selftests[i], list))
			continue;
		struct selftest_run run = { .sr_test = &__start_selftests[i] };
		uint64_t tid = thread_spawn(run.sr_test->st_name, selftest_thread, &run);
		if (tid == 0 || thread_join(tid) < 0)
			run.sr_ctx.st_failed++;
		kprintf("%sok %d - %s\n", run.sr_ctx.st_failed ? "not " : "", ++k, run.sr_test->st_name);
		failed += run.sr_ctx.st_failed != 0;
	}
	kprintf("# %d passed, %d failed\n", n - failed, failed);
	return failed;
}
