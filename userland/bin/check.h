/*
 * check.h - the one check of the user-mode checkers (syscheck, fscheck,
 * diskcheck): make a raw system call, compare its answer with the promised
 * one, and print a line the e2e tests read.
 *
 *   check("write(1, NULL, 5)", CALL(SYS_write, 1, 0, 5), -EFAULT);
 *       prints "ok write(1, NULL, 5) = -14", or "not ok ... = GOT" and
 *       counts a failure
 *   return check_summary();     prints "N failed", returns N
 *
 * CALL is sonde_syscall with three arguments (the rest zero), each cast to
 * long, so a check reads like the call it makes: the kernel sees the
 * Linux numbers and flags the checker spells out, with no libc wrapper
 * in between to check or reject anything first.
 *
 * Each checker is one source file: the definitions here are static, one
 * copy per program.
 *
 * Tests: tests/e2e/test_proc.py and test_sparc64_user.py (syscheck),
 * test_shell_pipes.py (fscheck), test_disk.py (diskcheck).
 */
#ifndef SONDE_CHECK_H
#define SONDE_CHECK_H

#include <stdio.h>
#include "userland/libc/sonde.h"

#define CALL(nr, a0, a1, a2) sonde_syscall((nr), (long)(a0), (long)(a1), (long)(a2), 0, 0, 0)

static int failures;

static void check(const char *what, long got, long want)
{
	printf("%s %s = %ld\n", got == want ? "ok" : "not ok", what, got);
	if (got != want)
		failures++;
}

/* check_summary: the last line, "N failed"; N */
static int check_summary(void)
{
	printf("%d failed\n", failures);
	return failures;
}

#endif
