/*
 * xclient USER CLIENT - a well-behaved client of the SunRay replay
 * (docs/labs/sunray.md): something like a terminal that draws a little now
 * and then.  Every 100 ms it makes two drawing round trips to its server;
 * every 3 seconds it creates a graphics context and frees it again.  Requests
 * go to fd XPROTO_REQ_FD, replies come on fd 0 (userland/bin/xproto.h).
 * Runs until killed or until its server is gone.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "userland/bin/xproto.h"
#include "userland/libc/sonde.h"

static uint32_t client;

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	uint32_t gc;

	if (argc != 3)
		return 2;
	client = (uint32_t)atoi(argv[2]);
	for (unsigned long n = (unsigned long)atoi(argv[1]);; n++) {
		xproto_call(client, XPROTO_DRAW, 0, NULL);
		xproto_call(client, XPROTO_DRAW, 0, NULL);
		if (n % 30 == 0 && xproto_call(client, XPROTO_CREATE_GC, 0, &gc) == 0)
			xproto_call(client, XPROTO_FREE_GC, gc, NULL);
		nanosleep(&tick, NULL);
	}
}
