/*
 * selftest.h - in-kernel self-tests, collected by a linker section.
 *
 *   SELFTEST(heap_roundtrip) { void *p = kmalloc(8); ST_ASSERT(p != NULL); kfree(p); }
 *
 * The kernel runs them all when booted with "selftest" on its command line,
 * prints TAP ("ok 3 - heap_roundtrip"), and powers off with status 0 if all
 * passed, 1 if not.  A test runs in a thread of its own.
 *
 * "selftest=PATTERN[,PATTERN...]" runs only the tests whose names match one
 * of the patterns (globs: '*' matches any run of characters).  A test
 * registered with SELFTEST_OPTIN() (a long one: the stress campaign's) runs
 * only when a pattern names it, never under a bare "selftest".  Tests read
 * their parameters from the command line with selftest_param().
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
	bool st_optin;               /* run only when selftest=PATTERN names it */
};

#define SELFTEST_REGISTER(name, optin) \
	static void selftest_fn_##name(struct selftest_ctx *st_ctx); \
	static const struct selftest selftest_##name \
		__attribute__((used, section("selftests"), aligned(8))) = \
		{ .st_name = #name, .st_fn = selftest_fn_##name, .st_optin = (optin) }; \
	static void selftest_fn_##name(struct selftest_ctx *st_ctx)
#define SELFTEST(name) SELFTEST_REGISTER(name, false)
#define SELFTEST_OPTIN(name) SELFTEST_REGISTER(name, true)

/*
 * selftest_param: the value of key=value on the kernel command line, as an
 * unsigned number, or def if absent or not a number.  Thread context.
 * selftest_param_str: the value as text into buf ("" for a bare flag);
 * false if absent.
 */
unsigned long selftest_param(const char *key, unsigned long def);
bool selftest_param_str(const char *key, char *buf, unsigned long size);

void selftest_fail(struct selftest_ctx *ctx, const char *expr, const char *file, int line);

#define ST_ASSERT(expr) \
	do { if (!(expr)) selftest_fail(st_ctx, #expr, __FILE__, __LINE__); } while (0)

/* selftest_run_all: run the selected tests (see above); returns the number that failed. */
int selftest_run_all(void);

#endif
