/*
 * xproto.h - the request protocol of the SunRay replay (docs/labs/sunray.md):
 * what xclient and ticker send to their xsrv, and what it answers.
 *
 * Each user's xsrv reads fixed-size requests from one pipe that all its
 * clients share (fd 0; a write this small to a pipe with room is never
 * split), and answers each on the reply pipe of the client that sent it
 * (fd XPROTO_REPLY_FD + client).  One reply per request: a client waits for
 * it before it sends the next, as an X client waits for a round trip.
 */
#ifndef SONDE_XPROTO_H
#define SONDE_XPROTO_H

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define XPROTO_ZERO_FD  3            /* xsrv's /dev/zero, opened by the launcher */
#define XPROTO_REPLY_FD 4            /* the first client's reply pipe, in xsrv */
#define XPROTO_CLIENTS  4            /* clients per server, at most */
#define XPROTO_HOLD_FD  8            /* xsrv's own hold on client c's reply pipe: fd 8 + c */
#define XPROTO_REQ_FD   3            /* in a client: its server's request pipe (replies on fd 0) */
#define XPROTO_PIXMAP_PAGES 4        /* a graphics context's pixmap: 16 KiB */

enum xproto_op {
	XPROTO_DRAW = 1,             /* draw into the window: no memory mapped */
	XPROTO_CREATE_GC,            /* a graphics context with its pixmap: mmap of /dev/zero */
	XPROTO_FREE_GC,              /* free it again: munmap */
};

struct xproto_req {
	uint32_t xr_op;              /* enum xproto_op */
	uint32_t xr_client;          /* which reply pipe answers */
	uint32_t xr_gc;              /* the context (CREATE_GC gives it, FREE_GC names it) */
	uint32_t xr_pad;
};

struct xproto_reply {
	int32_t xp_status;           /* 0, or -1 if the server could not do it */
	uint32_t xp_gc;
};

/*
 * xproto_call: one round trip from a client (requests on XPROTO_REQ_FD,
 * replies on fd 0); the reply's status.  A client whose server is gone
 * exits quietly.
 */
static inline int xproto_call(uint32_t client, uint32_t op, uint32_t gc, uint32_t *gc_out)
{
	struct xproto_req rq = { .xr_op = op, .xr_client = client, .xr_gc = gc };
	struct xproto_reply rp;

	if (write(XPROTO_REQ_FD, &rq, sizeof(rq)) != sizeof(rq) || read(0, &rp, sizeof(rp)) != sizeof(rp))
		exit(0);
	if (gc_out != NULL)
		*gc_out = rp.xp_gc;
	return rp.xp_status;
}

#endif
