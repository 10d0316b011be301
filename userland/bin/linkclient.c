/*
 * linkclient [-k] [-s SIZE] [N] - the client of the link's request/response
 * demo (docs/causal.md): on a machine joined to another by /dev/link,
 * first knock (request 0, "hello", every 20 ms until the server answers),
 * then send requests 1..N (default 3) one at a time, each waiting for its
 * response, then request 0 "quit", which ends the server (not with -k:
 * another client follows).  A request's payload is "request K", padded
 * with dots to SIZE bytes with -s (at most 256); the server works longer
 * on a longer request.  Prints each response.  Exit status 0 when every
 * request was answered, 1 otherwise (no /dev/link, or no answer within
 * about 30 s), 2 for bad usage.
 *
 * Each request begins a new causal context (LINK_F_BEGIN, kernel/link.h):
 * a D program on this machine can pack the request's tags into the
 * baggage at sdt:::link-send (arg0 the type, arg1 the request id); the
 * kernel sends them with the request, and the server's machine sees them.
 *
 * userland/bin/linkbulk.c is this program under another name, its requests
 * 200 bytes long: a second client, for D on the server to tell apart.
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
#ifndef LINKCLIENT_NAME
#define LINKCLIENT_NAME "linkclient"
#define LINKCLIENT_SIZE 0
#endif

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

/* request_text: "request K", dotted out to size bytes. */
static size_t request_text(char *buf, long id, size_t size)
{
	size_t n = (size_t)snprintf(buf, LINK_PAYLOAD_MAX + 1, "request %ld", id);

	while (n < size && n < LINK_PAYLOAD_MAX)
		buf[n++] = '.';
	buf[n] = '\0';
	return n;
}

static int usage(void)
{
	fprintf(stderr, "usage: " LINKCLIENT_NAME " [-k] [-s SIZE] [N]\n");
	return 2;
}

int main(int argc, char **argv)
{
	long n = 3, size = LINKCLIENT_SIZE;
	int keep = 0, i = 1;
	char text[LINK_PAYLOAD_MAX + 1], req[LINK_PAYLOAD_MAX + 1];

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-k") == 0)
			keep = 1;
		else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			size = atol(argv[++i]);
		else
			return usage();
	}
	if (i + 1 < argc || size < 0 || size > LINK_PAYLOAD_MAX)
		return usage();
	if (i < argc)
		n = atol(argv[i]);
	link_fd = open("/dev/link", O_RDWR | O_NONBLOCK);
	if (link_fd < 0) {
		perror(LINKCLIENT_NAME ": /dev/link");
		return 1;
	}
	if (knock() < 0) {
		fprintf(stderr, LINKCLIENT_NAME ": no answer from the other machine\n");
		return 1;
	}
	for (long id = 1; id <= n; id++) {
		request_text(req, id, (size_t)size);
		if (send_request((uint32_t)id, req) < 0 || await_response((uint32_t)id, text, sizeof(text), TRIES_MS) < 0) {
			fprintf(stderr, LINKCLIENT_NAME ": request %ld: no response\n", id);
			return 1;
		}
		printf(LINKCLIENT_NAME ": response %ld: %.*s\n", id, 24, text);
	}
	if (!keep && (send_request(0, "quit") < 0 || await_response(0, text, sizeof(text), TRIES_MS) < 0))
		fprintf(stderr, LINKCLIENT_NAME ": the server did not answer quit\n");
	printf(LINKCLIENT_NAME ": %ld requests answered\n", n);
	return 0;
}
