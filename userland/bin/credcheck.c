/*
 * credcheck - user and group ids, checked from user mode (kernel/cred.h):
 * getuid, geteuid, getgid, getegid, setuid, setgid, seteuid, setegid,
 * setresuid, getresuid, and that fork and execve keep the ids.
 *
 *   credcheck               the checks; prints "ok" or "not ok" per check
 *                           and "N failed", exit status 0 when all passed.
 *                           As root (the shell's programs) each privileged
 *                           sequence runs in a child of its own; as another
 *                           user (`runas 1000:50 /bin/credcheck`) it checks
 *                           that every change to an id it does not hold is
 *                           EPERM and changes nothing.
 *   credcheck -p            print "uid=R euid=E gid=G egid=H" (as id(1))
 *   credcheck -s UID[:GID]  setgid(GID) if given, then setuid(UID), silently
 *                           (tests/d/proc/tst.uid.d traces the calls; its
 *                           golden then holds nothing that races the trace)
 *   credcheck -x R E G H    exit 0 when the ids are R E G H, else 1 (what a
 *                           child execs to see the ids kept over execve)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

static int failures;

static void check(const char *what, int ok)
{
	printf("%s %s\n", ok ? "ok" : "not ok", what);
	failures += !ok;
}

static int ids_are(unsigned r, unsigned e, unsigned g, unsigned eg)
{
	return getuid() == r && geteuid() == e && getgid() == g && getegid() == eg;
}

static int eperm(int rv)
{
	return rv == -1 && errno == EPERM;
}

/* in_child: run fn in a child process, adding its failures (its exit status) to ours. */
static void in_child(void (*fn)(void))
{
	int status = 0;

	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		failures = 0;                   /* its own count: the parent adds it */
		fn();
		fflush(stdout);
		exit(failures);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		check("the child ran to its end", 0);
		return;
	}
	failures += WEXITSTATUS(status);
}

/* Root's setuid changes all three ids, and then there is no way back. */
static void root_setuid_for_good(void)
{
	uid_t r, e, s;

	check("root: setuid(1000)", setuid(1000) == 0);
	check("  real, effective and saved uid are 1000",
	      getresuid(&r, &e, &s) == 0 && r == 1000 && e == 1000 && s == 1000);
	check("  setuid(0) now: EPERM", eperm(setuid(0)));
	check("  seteuid(0) now: EPERM", eperm(seteuid(0)));
	check("  setresuid(-1, 0, -1): EPERM", eperm(setresuid((uid_t)-1, 0, (uid_t)-1)));
	check("  setuid(1000), its own uid, is allowed", setuid(1000) == 0);
	check("  setgid(50) without privilege: EPERM", eperm(setgid(50)));
	check("  the ids did not change", ids_are(1000, 1000, 0, 0));
}

/* seteuid drops privilege for a while: the saved id (0) takes it back. */
static void root_seteuid_and_back(void)
{
	uid_t r, e, s;

	check("root: seteuid(1000)", seteuid(1000) == 0);
	check("  real 0, effective 1000, saved 0",
	      getresuid(&r, &e, &s) == 0 && r == 0 && e == 1000 && s == 0);
	check("  setuid(2000) (neither real nor saved): EPERM", eperm(setuid(2000)));
	check("  setgid(50) without privilege: EPERM", eperm(setgid(50)));
	check("  seteuid(0) (the real and saved id) takes privilege back", seteuid(0) == 0);
	check("  geteuid() is 0 again", geteuid() == 0 && getuid() == 0);
	check("  seteuid(1000) and setuid(0): setuid to the real id sets only the effective one",
	      seteuid(1000) == 0 && setuid(0) == 0 && ids_are(0, 0, 0, 0));
}

static void root_setgid(void)
{
	gid_t r, e, s;

	check("root: setgid(50)", setgid(50) == 0);
	check("  real, effective and saved gid are 50",
	      getresgid(&r, &e, &s) == 0 && r == 50 && e == 50 && s == 50);
	check("  setegid(60) as root", setegid(60) == 0 && getegid() == 60 && getgid() == 50);
	check("  setuid(1000) then setgid(0): EPERM", setuid(1000) == 0 && eperm(setgid(0)));
	check("  setegid(50), the real gid, is allowed", setegid(50) == 0 && getegid() == 50);
	check("  setegid(70): EPERM", eperm(setegid(70)));
	check("  ids 1000 1000 50 50", ids_are(1000, 1000, 50, 50));
}

/* fork and execve keep the ids: the child execs credcheck -x to look. */
static void root_fork_exec_keep(void)
{
	int status = 0;

	check("root: setgid(50) and setuid(1000)", setgid(50) == 0 && setuid(1000) == 0);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = { "/bin/credcheck", "-x", "1000", "1000", "50", "50", NULL };
		execve(argv[0], argv, NULL);
		_exit(2);
	}
	check("  the ids are kept by fork and execve",
	      pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
}

static void check_root(void)
{
	check("started as root: every id 0", ids_are(0, 0, 0, 0));
	check("setuid(-1): EINVAL", setuid((uid_t)-1) == -1 && errno == EINVAL);
	check("getresuid with bad pointers: EFAULT",
	      sonde_syscall(SYS_getresuid, 0, 0, 0, 0, 0, 0) == -EFAULT);
	in_child(root_setuid_for_good);
	in_child(root_seteuid_and_back);
	in_child(root_setgid);
	in_child(root_fork_exec_keep);
	check("the parent is still root", ids_are(0, 0, 0, 0));
}

/* As another user (runas): nothing it does not hold may be taken. */
static void check_user(void)
{
	uid_t u = getuid();
	gid_t g = getgid(), other = g != 0 ? 0 : 1;   /* a group it is not in */
	char what[64];

	check("real and effective ids agree", geteuid() == u && getegid() == g);
	check("setuid(0): EPERM", eperm(setuid(0)));
	check("seteuid(0): EPERM", eperm(seteuid(0)));
	check("setresuid(0, 0, 0): EPERM", eperm(setresuid(0, 0, 0)));
	snprintf(what, sizeof(what), "setgid(%u): EPERM", (unsigned)other);
	check(what, eperm(setgid(other)));
	snprintf(what, sizeof(what), "setegid(%u): EPERM", (unsigned)other);
	check(what, eperm(setegid(other)));
	check("setuid(getuid()) is allowed", setuid(u) == 0);
	check("setgid(getgid()) is allowed", setgid(g) == 0);
	check("the ids did not change", ids_are(u, u, g, g));
}

static void print_ids(void)
{
	printf("uid=%u euid=%u gid=%u egid=%u\n", (unsigned)getuid(), (unsigned)geteuid(),
	       (unsigned)getgid(), (unsigned)getegid());
}

/* -s UID[:GID]: the calls only; a failure is said, with exit status 1. */
static int set_ids(const char *arg)
{
	char *end;
	unsigned long uid = strtoul(arg, &end, 10);

	if (*end == ':' && setgid((gid_t)strtoul(end + 1, NULL, 10)) != 0) {
		printf("credcheck: setgid: %s\n", strerror(errno));
		return 1;
	}
	if (setuid((uid_t)uid) != 0) {
		printf("credcheck: setuid: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "-p") == 0) {
		print_ids();
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-s") == 0)
		return set_ids(argv[2]);
	if (argc == 6 && strcmp(argv[1], "-x") == 0)
		return ids_are(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5])) ? 0 : 1;
	if (argc != 1) {
		printf("usage: credcheck [-p | -s UID[:GID] | -x UID EUID GID EGID]\n");
		return 2;
	}
	if (getuid() == 0 && geteuid() == 0)
		check_root();
	else
		check_user();
	printf("%d failed\n", failures);
	return failures != 0;
}
