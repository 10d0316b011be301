/*
 * cred.h - a process's user and group ids, and the rules for changing them.
 *
 * Each process has a real, an effective and a saved set-user-id (and the
 * same three for its group), as POSIX describes them.  Sonde has no file
 * permissions yet, so the ids decide only who may change ids (and what D's
 * uid, gid and curpsinfo report): the users DTrace's privileges will need.
 * An effective uid of 0 is the superuser, who may set any id; anyone else
 * may only move among the ids it already holds, else EPERM.  The console's
 * shell and its programs run as 0 (root); `runas` starts a program as
 * another user.
 *
 * The rules are plain functions on a struct cred, so the host unit test
 * checks them without a kernel; kernel/syscall_cred.c applies them to the
 * calling process.  No context rules: no locks, no allocation.
 *
 * Tests: tests/unit/kernel_cred_test.c, tests/e2e/test_cred.py
 */
#ifndef SONDE_CRED_H
#define SONDE_CRED_H

#include <stdint.h>

#define CRED_KEEP 0xffffffffu        /* (uid_t)-1: "leave this id as it is" (setresuid) */
#define CRED_EPERM  1                /* the errnos returned (negated): Linux's, as kernel/proc.h's */
#define CRED_EINVAL 22

struct cred {
	uint32_t cr_ruid, cr_euid, cr_suid;
	uint32_t cr_rgid, cr_egid, cr_sgid;
};

/* cred_root: every id 0, what a process started from the console gets. */
struct cred cred_root(void);

/* cred_user: every user id uid and every group id gid (runas UID:GID). */
struct cred cred_user(uint32_t uid, uint32_t gid);

/*
 * cred_setuid: setuid(2) as POSIX puts it.  The superuser (euid 0) sets
 * all three user ids; anyone else may set the effective id to the real or
 * the saved one.  0, -EPERM, or -EINVAL for (uid_t)-1; on an error c is
 * unchanged.  cred_setgid: the same for the group ids (privilege is
 * still euid 0).
 */
int cred_setuid(struct cred *c, uint32_t uid);
int cred_setgid(struct cred *c, uint32_t gid);

/*
 * cred_setresuid: setresuid(2): each of real, effective and saved that is
 * not CRED_KEEP becomes the given id.  The superuser may give any id;
 * anyone else only one of its current three, else -EPERM with c
 * unchanged.  seteuid(e) is setresuid(KEEP, e, KEEP).  cred_setresgid:
 * the same for the group ids.
 */
int cred_setresuid(struct cred *c, uint32_t r, uint32_t e, uint32_t s);
int cred_setresgid(struct cred *c, uint32_t r, uint32_t e, uint32_t s);

#endif
