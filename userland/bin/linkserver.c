/*
 * linkserver [SPIN] - the server of the link's request/response demo
 * (docs/causal.md): on a machine joined to another by /dev/link, answer
 * each request with a response of the same id whose payload is "re: "
 * and the request's, after busy work: SPIN iterations (default 50000) for
 * every started 16 bytes of the request's payload, so a longer request
 * costs more (the latency a D program measures); a request "quit" is
 * answered and ends the server.  Prints how many requests it answered; exit status 0,
 * or 1 when /dev/link cannot be read.
 *
 * Each read gives the thread the request's baggage (kernel/link.c): at
 * sdt:::link-receive and every probe after it, until the response is
 * sent, D's bag-> sees the tags the client's machine packed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernel/link.h"

static volatile unsigned long sink;

static void work(long spin)
{
	for (long i = 0; i < spin; i++)
		sink += (unsigned long)i;
}

static int respond(int fd, uint32_t id, const char *payload, size_t n)
{
	char buf[LINK_MSG_MAX];
	struct link_msg m = { .lm_type = LINK_T_RESPONSE, .lm_reqid = id };

	if (n > LINK_PAYLOAD_MAX - 4)
		n = LINK_PAYLOAD_MAX - 4;
	memcpy(buf, &m, sizeof(m));
	memcpy(buf + sizeof(m), "re: ", 4);
	memcpy(buf + sizeof(m) + 4, payload, n);
	return write(fd, buf, sizeof(m) + 4 + n) < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	long spin = argc > 1 ? atol(argv[1]) : 50000, answered = 0;
	char buf[LINK_MSG_MAX];
	struct link_msg m;
	int fd = open("/dev/link", O_RDWR);

	if (fd < 0) {
		perror("linkserver: /dev/link");
		return 1;
	}
	for (;;) {
		int n = read(fd, buf, sizeof(buf));
		if (n < (int)sizeof(m)) {
			perror("linkserver: read");
			return 1;
		}
		memcpy(&m, buf, sizeof(m));
		if (m.lm_type != LINK_T_REQUEST)
			continue;
		size_t len = (size_t)n - sizeof(m);
		bool quit = len == 4 && memcmp(buf + sizeof(m), "quit", 4) == 0;
		if (m.lm_reqid != 0)
			work(spin * (long)(len / 16 + 1));
		if (respond(fd, m.lm_reqid, buf + sizeof(m), len) < 0) {
			perror("linkserver: write");
			return 1;
		}
		if (m.lm_reqid != 0)
			answered++;
		if (quit)
			break;
	}
	printf("linkserver: %ld requests answered\n", answered);
	return 0;
}
