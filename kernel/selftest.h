/*
 * selftest.h - in-kernel self-tests, collected by a linker section.
 *
 *   SELFTEST(heap_roundtrip) { void *p = kmalloc(8); ST_ASSERT(p != NULL); kfree(p); }
 *
 * The kernel runs them all when booted with "selftest" on its command line,
 * prints TAP ("ok 3 - heap_roundtrip"), and powers off with status 0 if all
 * passed, 1 if not.  A test runs in a thread of its own.
 */
#ifndef SONDE_SELFTEST_H
#define SONDE_SELFTEST_H

#include <stdbool.h>

struct selftest_ctx {
	int st_failed;               /* number of failed assertions */
};

struct selftest {
	const char *st_name;
	void (*st_fn)(struct selftest_ctx *ctx);
};

#define SELFTEST(name) \
	static void selftest_fn_##name(struct selftest_ctx *st_ctx); \
	static const struct selftest selftest_##name \
		__attribute__((used, section("selftests"), aligned(8))) = \
		{ .st_name = #name, .st_fn = selftest_fn_##name }; \
	static void selftest_fn_##name(struct selftest_ctx *st_ctx)

void selftest_fail(struct selftest_ctx *ctx, const char *expr, const char *file, int line);

#define ST_ASSERT(expr) \
	do { if (!(expr)) selftest_fail(st_ctx, #expr, __FILE__, __LINE__); } while (0)

/* selftest_run_all: run every registered test; returns the number that failed. */
int selftest_run_all(void);

#endif
