/*
 * ids.c - the user and group id calls under newlib (kernel/cred.h,
 * docs/processes.md "Users"): getuid, geteuid, getgid, getegid, setuid,
 * setgid, seteuid, setegid, and Linux's setresuid, setresgid, getresuid,
 * getresgid (declared in userland/libc/sonde.h).
 *
 * newlib's uid_t and gid_t are 16 bits, the kernel's ids 32: id_arg
 * passes (uid_t)-1 as the kernel's -1 ("keep this id"), and getres reads
 * the kernel's three 32-bit ids into newlib's.  seteuid and setegid are
 * setresuid(-1, e, -1) and setresgid(-1, e, -1), as in glibc: Linux has
 * no such call.  A file of its own so that only the programs that use
 * these link them (the sparc64 image holds every /bin program in 4 MiB).
 *
 * Tests: tests/e2e/test_cred.py (/bin/credcheck)
 */
#include <errno.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

/* result: the kernel's -errno as C's -1 and errno. */
static int result(long r)
{
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return (int)r;
}

static long id_arg(unsigned id)
{
	return id == (uid_t)-1 ? -1L : (long)id;
}

static long call3(long nr, long a, long b, long c)
{
	return sonde_syscall(nr, a, b, c, 0, 0, 0);
}

uid_t getuid(void)  { return (uid_t)call3(SYS_getuid, 0, 0, 0); }
uid_t geteuid(void) { return (uid_t)call3(SYS_geteuid, 0, 0, 0); }
gid_t getgid(void)  { return (gid_t)call3(SYS_getgid, 0, 0, 0); }
gid_t getegid(void) { return (gid_t)call3(SYS_getegid, 0, 0, 0); }

int setuid(uid_t uid) { return result(call3(SYS_setuid, id_arg(uid), 0, 0)); }
int setgid(gid_t gid) { return result(call3(SYS_setgid, id_arg(gid), 0, 0)); }

int setresuid(uid_t r, uid_t e, uid_t s)
{
	return result(call3(SYS_setresuid, id_arg(r), id_arg(e), id_arg(s)));
}

int setresgid(gid_t r, gid_t e, gid_t s)
{
	return result(call3(SYS_setresgid, id_arg(r), id_arg(e), id_arg(s)));
}

int seteuid(uid_t e) { return setresuid((uid_t)-1, e, (uid_t)-1); }
int setegid(gid_t e) { return setresgid((gid_t)-1, e, (gid_t)-1); }

/* getres: the kernel writes three 32-bit ids; newlib's are 16 bits. */
static int getres(long nr, unsigned short *r, unsigned short *e, unsigned short *s)
{
	uint32_t ids[3];
	int rv = result(call3(nr, (long)&ids[0], (long)&ids[1], (long)&ids[2]));

	if (rv == 0) {
		*r = (unsigned short)ids[0];
		*e = (unsigned short)ids[1];
		*s = (unsigned short)ids[2];
	}
	return rv;
}

int getresuid(uid_t *r, uid_t *e, uid_t *s) { return getres(SYS_getresuid, r, e, s); }
int getresgid(gid_t *r, gid_t *e, gid_t *s) { return getres(SYS_getresgid, r, e, s); }
