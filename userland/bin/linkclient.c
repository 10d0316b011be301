/*
 * linkclient [N] - the client of the link's request/response demo
 * (docs/causal.md): on a machine joined to another by /dev/link, first
 * knock (request 0, "hello", every 20 ms until the server answers), then
 * send requests 1..N (default 3) one at a time, each waiting for its
 * response, then request 0 "quit", which ends the server.  Prints each
 * response.  Exit status 0 when every request was answered, 1 otherwise
 * (no /dev/link, or no answer within about 30 s).
 *
 * Each request begins a new causal context (LINK_F_BEGIN, kernel/link.h):
 * a D program on this machine can pack the request's tags into the
 * baggage at sdt:::link-send (arg0 the type, arg1 the request id); the
 * kernel sends them with the request, and the server's machine sees them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include "kernel/link.h"

#define TRIES_MS 30000

int nanosleep(const struct timespec *req, struct timespec *rem);   /* userland/libc (newlib hides it) */

static int link_fd;

static int send_request(uint32_t id, const char *text)
{
	char buf[LINK_MSG_MAX];
	struct link_msg m = { .lm_type = LINK_T_REQUEST, .lm_flags = LINK_F_BEGIN, .lm_reqid = id };
	size_t n = strlen(text);

	memcpy(buf, &m, sizeof(m));
	memcpy(buf + sizeof(m), text, n);
	return write(link_fd, buf, sizeof(m) + n) == (int)(sizeof(m) + n) ? 0 : -1;
}

static void nap_ms(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000 };
	nanosleep(&ts, NULL);
}

/*
 * await_response: wait up to ms for the response to request id (others are
 * dropped: late answers to knocks); its payload into text.  0 or -1.
 */
static int await_response(uint32_t id, char *text, size_t cap, long ms)
{
	char buf[LINK_MSG_MAX];
	struct link_msg m;

	for (long waited = 0; waited <= ms; ) {
		int n = read(link_fd, buf, sizeof(buf));
		if (n < 0 && errno == EAGAIN) {
			nap_ms(1);
			waited++;
			continue;
		}
		if (n < (int)sizeof(m))
			return -1;
		memcpy(&m, buf, sizeof(m));
		if (m.lm_type != LINK_T_RESPONSE || m.lm_reqid != id)
			continue;
		size_t len = (size_t)n - sizeof(m) < cap - 1 ? (size_t)n - sizeof(m) : cap - 1;
		memcpy(text, buf + sizeof(m), len);
		text[len] = '\0';
		return 0;
	}
	return -1;
}

/* knock: request 0 until the server answers (it may still be booting). */
static int knock(void)
{
	char text[LINK_PAYLOAD_MAX + 1];

	for (int i = 0; i < TRIES_MS / 20; i++) {
		if (send_request(0, "hello") < 0)
			return -1;
		if (await_response(0, text, sizeof(text), 20) == 0)
			return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3;
	char text[LINK_PAYLOAD_MAX + 1], req[32];

	link_fd = open("/dev/link", O_RDWR | O_NONBLOCK);
	if (link_fd < 0) {
		perror("linkclient: /dev/link");
		return 1;
	}
	if (knock() < 0) {
		fprintf(stderr, "linkclient: no answer from the other machine\n");
		return 1;
	}
	for (long id = 1; id <= n; id++) {
		snprintf(req, sizeof(req), "request %ld", id);
		if (send_request((uint32_t)id, req) < 0 || await_response((uint32_t)id, text, sizeof(text), TRIES_MS) < 0) {
			fprintf(stderr, "linkclient: request %ld: no response\n", id);
			return 1;
		}
		printf("linkclient: response %ld: %s\n", id, text);
	}
	if (send_request(0, "quit") < 0 || await_response(0, text, sizeof(text), TRIES_MS) < 0)
		fprintf(stderr, "linkclient: the server did not answer quit\n");
	printf("linkclient: %ld requests answered\n", n);
	return 0;
}
