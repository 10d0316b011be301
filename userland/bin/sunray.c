/*
 * sunray [USERS [APPLETS]] - start the SunRay replay (docs/labs/sunray.md):
 * USERS users (default 16), each with an xsrv and a well-behaved xclient;
 * the first APPLETS of them (default 3) also run the ticker applet.
 *
 * For each user: /dev/zero on xsrv's fd XPROTO_ZERO_FD (3), one request
 * pipe (xsrv's fd 0, each client's fd
 * XPROTO_REQ_FD) and a reply pipe per client (the client's fd 0, xsrv's fd
 * XPROTO_REPLY_FD + client, and xsrv holds the read end too on
 * XPROTO_HOLD_FD + client; userland/bin/xproto.h).  Every process keeps
 * fds 1 and 2 and nothing else.  Prints a line per user with the pids, then
 * exits: the users run on (orphans) until killed, and each xsrv ends when
 * its clients have.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "userland/bin/xproto.h"

#define SUNRAY_MAX_USERS 20          /* 2 or 3 processes each, in a table of 64 */
#define FD_TEMP 10                   /* dup2 through fds 10..15: above every target (9) */
#define FD_TOP  16                   /* PROC_FILES */

/* An fd of the launcher that a child must have as another number. */
struct fd_map { int fm_from, fm_to; };

/*
 * fd_arrange: in a child, give it exactly maps[] (plus fds 1, 2): through
 * temporary numbers first, since a source may be another map's target.
 */
static void fd_arrange(const struct fd_map *maps, int n)
{
	for (int i = 0; i < n; i++)
		dup2(maps[i].fm_from, FD_TEMP + i);
	for (int fd = 0; fd < FD_TEMP; fd++)
		if (fd != 1 && fd != 2)
			close(fd);
	for (int i = 0; i < n; i++) {
		dup2(FD_TEMP + i, maps[i].fm_to);
		close(FD_TEMP + i);
	}
}

/* spawn: fork, arrange the fds, exec /bin/PROG with its arguments; the pid, or -1. */
static int spawn(const char *prog, int user, int arg2, const struct fd_map *maps, int n)
{
	char path[32], a1[12], a2[12];
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	snprintf(path, sizeof(path), "/bin/%s", prog);
	snprintf(a1, sizeof(a1), "%d", user);
	snprintf(a2, sizeof(a2), "%d", arg2);
	char *argv[] = { (char *)prog, a1, a2, NULL };
	fd_arrange(maps, n);
	execve(path, argv, NULL);
	_exit(127);
}

/* user_start: one user's xsrv and clients; prints their pids; 0 or -1. */
static int user_start(int user, int ticker)
{
	int req[2], rep[2][2], clients = ticker ? 2 : 1, zero = open("/dev/zero", O_RDWR);

	if (zero < 0 || pipe(req) < 0 || pipe(rep[0]) < 0 || (ticker && pipe(rep[1]) < 0))
		return -1;
	struct fd_map srv[2 + 2 * 2] = { { req[0], 0 }, { zero, XPROTO_ZERO_FD } };
	for (int c = 0; c < clients; c++) {
		srv[2 + 2 * c] = (struct fd_map){ rep[c][1], XPROTO_REPLY_FD + c };
		srv[3 + 2 * c] = (struct fd_map){ rep[c][0], XPROTO_HOLD_FD + c };
	}
	int pids[3] = { spawn("xsrv", user, clients, srv, 2 + 2 * clients), -1, -1 };
	for (int c = 0; c < clients; c++) {
		struct fd_map cl[2] = { { rep[c][0], 0 }, { req[1], XPROTO_REQ_FD } };
		pids[1 + c] = spawn(c == 0 ? "xclient" : "ticker", user, c, cl, 2);
	}
	for (int fd = 3; fd < FD_TOP; fd++)
		close(fd);
	if (ticker)
		printf("sunray: user %2d: xsrv pid %d, xclient pid %d, ticker pid %d\n",
		       user, pids[0], pids[1], pids[2]);
	else
		printf("sunray: user %2d: xsrv pid %d, xclient pid %d\n", user, pids[0], pids[1]);
	return pids[0] < 0 || pids[1] < 0 || (ticker && pids[2] < 0) ? -1 : 0;
}

int main(int argc, char **argv)
{
	int users = argc > 1 ? atoi(argv[1]) : 16, applets = argc > 2 ? atoi(argv[2]) : 3;

	if (argc > 3 || users < 1 || users > SUNRAY_MAX_USERS || applets < 0 || applets > users) {
		fprintf(stderr, "usage: sunray [USERS [APPLETS]] (1 to %d users, at most one applet each)\n",
		        SUNRAY_MAX_USERS);
		return 2;
	}
	printf("sunray: %d users, %d running the ticker applet; in each xsrv fd 0 is the requests,\n"
	       "sunray: fd %d /dev/zero, fd %d and up the replies\n", users, applets, XPROTO_ZERO_FD,
	       XPROTO_REPLY_FD);
	for (int u = 0; u < users; u++)
		if (user_start(u, u < applets) < 0) {
			fprintf(stderr, "sunray: cannot start user %d\n", u);
			return 1;
		}
	return 0;
}
