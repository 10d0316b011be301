/*
 * xsrv USER [CLIENTS] - an X-server-like process for the SunRay replay
 * (docs/labs/sunray.md): one per user, serving its clients over pipes.
 *
 * Requests (userland/bin/xproto.h) come on fd 0, a pipe all of this user's
 * clients write; the reply to client c goes to fd XPROTO_REPLY_FD + c.  The
 * launcher (sunray) also leaves xsrv the read end of each reply pipe, on fd
 * XPROTO_HOLD_FD + c, never read: a client killed while its request is in
 * flight then cannot kill the server with SIGPIPE (Sonde's processes cannot
 * ignore a signal).
 * Drawing maps nothing.  Creating a graphics context creates its pixmap,
 * and a pixmap is memory mapped from /dev/zero (held open from the start
 * on fd XPROTO_ZERO_FD, 3: the launcher opens it, or xsrv if run alone)
 * and touched; freeing the context unmaps it.  On
 * a machine with several CPUs that munmap must shoot down the TLB entries
 * any other CPU may hold for this address space, by cross-call
 * (arch/x86_64/vm_tlb.c): the cost the paper's section 9 traced to Xsun.
 *
 * Migration.  Before each request xsrv moves to the next CPU
 * (sched_setaffinity, wrapping past the last): it stands in for the
 * migrations of the paper's busy 10-CPU server, which an idle 4-CPU guest
 * would not have.  It matters because Sonde's shootdown sends a cross-call
 * only to a CPU that may still hold the space: a process that never moves
 * costs none, one that moved costs its old CPU one (vm_tlb.c).
 *
 * The functions on the pixmap path are kept out of line so that ustack()
 * shows them: main -> xsrv_request -> gc_create -> pixmap_create -> mmap.
 * Exits when every client has closed its end of the request pipe.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "userland/bin/xproto.h"
#include "userland/libc/sonde.h"

#define PAGE 4096
#define XSRV_GCS 64                  /* graphics contexts alive at once */

static const int zero_fd = XPROTO_ZERO_FD;   /* /dev/zero */
static unsigned char *gcs[XSRV_GCS]; /* each context's pixmap, or NULL */
static volatile unsigned long drawn; /* what drawing computes, so it is not optimized away */

/* pixmap_create: a zeroed pixmap of XPROTO_PIXMAP_PAGES pages, mapped from /dev/zero; NULL if none. */
__attribute__((noinline)) unsigned char *pixmap_create(void)
{
	size_t len = XPROTO_PIXMAP_PAGES * PAGE;
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, zero_fd, 0);

	if (p == MAP_FAILED)
		return NULL;
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 0xff;              /* fault each page in: the TLB now holds it */
	return p;
}

__attribute__((noinline)) void pixmap_destroy(unsigned char *p)
{
	munmap(p, XPROTO_PIXMAP_PAGES * PAGE);
}

/* gc_create: a free slot with a new pixmap in it; its number, or -1. */
__attribute__((noinline)) int gc_create(void)
{
	for (int i = 0; i < XSRV_GCS; i++)
		if (gcs[i] == NULL)
			return (gcs[i] = pixmap_create()) != NULL ? i : -1;
	return -1;
}

__attribute__((noinline)) int gc_free(uint32_t gc)
{
	if (gc >= XSRV_GCS || gcs[gc] == NULL)
		return -1;
	pixmap_destroy(gcs[gc]);
	gcs[gc] = NULL;
	return 0;
}

/* draw: some arithmetic standing in for rendering. */
__attribute__((noinline)) int draw(void)
{
	unsigned long x = drawn;

	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	drawn = x;
	return 0;
}

static int next_cpu;

/* xsrv_migrate: run on the next CPU from here on (CPU 0 again past the last). */
static void xsrv_migrate(void)
{
	unsigned long mask = 1UL << next_cpu;

	if (sonde_syscall(SYS_sched_setaffinity, 0, sizeof(mask), (long)&mask, 0, 0, 0) != 0) {
		next_cpu = 0;
		mask = 1;
		sonde_syscall(SYS_sched_setaffinity, 0, sizeof(mask), (long)&mask, 0, 0, 0);
	}
	next_cpu = (next_cpu + 1) % 64;
}

/* xsrv_request: carry out one request and answer it; false if the reply pipe is gone. */
__attribute__((noinline)) int xsrv_request(const struct xproto_req *rq, int clients)
{
	struct xproto_reply rp = { 0, 0 };

	if (rq->xr_client >= (uint32_t)clients)
		return 1;                           /* nobody to answer */
	if (rq->xr_op == XPROTO_DRAW)
		rp.xp_status = draw();
	else if (rq->xr_op == XPROTO_CREATE_GC)
		rp.xp_status = (int)(rp.xp_gc = (uint32_t)gc_create()) < 0 ? -1 : 0;
	else if (rq->xr_op == XPROTO_FREE_GC)
		rp.xp_status = gc_free(rq->xr_gc);
	else
		rp.xp_status = -1;
	return write(XPROTO_REPLY_FD + (int)rq->xr_client, &rp, sizeof(rp)) == sizeof(rp);
}

int main(int argc, char **argv)
{
	int clients = argc > 2 ? atoi(argv[2]) : 1;
	struct xproto_req rq;

	if (argc < 2 || clients < 1 || clients > XPROTO_CLIENTS) {
		fprintf(stderr, "usage: xsrv USER [CLIENTS]\n");
		return 2;
	}
	struct stat st;
	int fd;
	if (fstat(zero_fd, &st) < 0 && ((fd = open("/dev/zero", O_RDWR)) < 0 || dup2(fd, zero_fd) < 0)) {
		perror("xsrv: /dev/zero");
		return 1;
	}
	while (read(0, &rq, sizeof(rq)) == sizeof(rq)) {
		xsrv_migrate();
		xsrv_request(&rq, clients);
	}
	return 0;
}
