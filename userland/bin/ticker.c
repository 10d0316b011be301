/*
 * ticker USER CLIENT - the badly behaved applet of the SunRay replay
 * (docs/labs/sunray.md), after the paper's stock ticker applet: every 10 ms
 * it asks its server to create a graphics context and to free it again, to
 * draw one frame of a scrolling display.  Each creation maps a pixmap in the
 * server, each free unmaps it, and each unmap costs cross-calls on a
 * machine with several CPUs.  Requests go to fd XPROTO_REQ_FD, replies come
 * on fd 0 (userland/bin/xproto.h).  Runs until killed or until its server
 * is gone.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "userland/bin/xproto.h"
#include "userland/libc/sonde.h"

static uint32_t client;

/* ticker_frame: one frame: a context made and freed at once. */
static void ticker_frame(void)
{
	uint32_t gc;

	if (xproto_call(client, XPROTO_CREATE_GC, 0, &gc) == 0)
		xproto_call(client, XPROTO_FREE_GC, gc, NULL);
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	if (argc != 3)
		return 2;
	client = (uint32_t)atoi(argv[2]);
	for (;;) {
		ticker_frame();
		nanosleep(&tick, NULL);
	}
}
