/*
 * syscall_cred.c - the system calls of user and group ids: getuid,
 * geteuid, getgid, getegid, setuid, setgid, and setresuid, setresgid,
 * getresuid, getresgid (Linux's numbers, kernel/syscalls.def).
 *
 * The rules are kernel/cred.c's; here they are applied to the calling
 * process's p_cred.  Linux has no seteuid or setegid call: the C library
 * makes them setresuid(-1, e, -1) and setresgid(-1, e, -1), as glibc does.
 * An id is the argument's low 32 bits (uid_t).  Only the process itself
 * writes its ids (one thread per process); probe context reads them with
 * plain 32-bit loads (D's uid and gid, curpsinfo), so a reader sees each
 * id either old or new.  Thread context, the caller's thread.
 *
 * Tests: tests/e2e/test_cred.py (/bin/credcheck), tests/d/proc/tst.uid.d
 */
#include "arch/arch.h"
#include "kernel/cred.h"
#include "kernel/proc.h"
#include "kernel/syscall.h"

_Static_assert(CRED_EPERM == EPERM && CRED_EINVAL == EINVAL, "kernel/cred.h's errnos are Linux's");

static struct cred *mycred(void)
{
	return &curproc()->p_cred;
}

int64_t sys_getuid(const uint64_t a[6])
{
	(void)a;
	return mycred()->cr_ruid;
}

int64_t sys_geteuid(const uint64_t a[6])
{
	(void)a;
	return mycred()->cr_euid;
}

int64_t sys_getgid(const uint64_t a[6])
{
	(void)a;
	return mycred()->cr_rgid;
}

int64_t sys_getegid(const uint64_t a[6])
{
	(void)a;
	return mycred()->cr_egid;
}

/*
 * The set calls work on a copy and store it whole, so that a refused call
 * changes nothing.
 */
int64_t sys_setuid(const uint64_t a[6])
{
	struct cred c = *mycred();
	int r = cred_setuid(&c, (uint32_t)a[0]);

	if (r == 0)
		*mycred() = c;
	return r;
}

int64_t sys_setgid(const uint64_t a[6])
{
	struct cred c = *mycred();
	int r = cred_setgid(&c, (uint32_t)a[0]);

	if (r == 0)
		*mycred() = c;
	return r;
}

int64_t sys_setresuid(const uint64_t a[6])
{
	struct cred c = *mycred();
	int r = cred_setresuid(&c, (uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2]);

	if (r == 0)
		*mycred() = c;
	return r;
}

int64_t sys_setresgid(const uint64_t a[6])
{
	struct cred c = *mycred();
	int r = cred_setresgid(&c, (uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2]);

	if (r == 0)
		*mycred() = c;
	return r;
}

/* getres: copy the three ids out to three user addresses (EFAULT if any is bad). */
static int64_t getres(const uint64_t a[6], uint32_t r, uint32_t e, uint32_t s)
{
	if (arch_copyout(a[0], &r, sizeof(r)) < 0 || arch_copyout(a[1], &e, sizeof(e)) < 0 ||
	    arch_copyout(a[2], &s, sizeof(s)) < 0)
		return -EFAULT;
	return 0;
}

int64_t sys_getresuid(const uint64_t a[6])
{
	const struct cred *c = mycred();

	return getres(a, c->cr_ruid, c->cr_euid, c->cr_suid);
}

int64_t sys_getresgid(const uint64_t a[6])
{
	const struct cred *c = mycred();

	return getres(a, c->cr_rgid, c->cr_egid, c->cr_sgid);
}
