/*
 * reqs [N [BAD]] - serve N requests (default 100), of which request BAD
 * (default 37) fails: the workload of docs/labs/06-speculation.md and
 * 07-pid.md.  Prints "reqs: N requests, 1 failed" and exits 0.
 *
 * Each request is one call of request_serve(id): it logs (getpid, the
 * stand-in for a logging call), looks up the file the request names,
 * opens it, reads it, and writes it to /dev/null.  Request BAD names a
 * file that does not exist, so its open fails (ENOENT) and request_serve
 * returns -1; every other request returns the bytes it served.  The
 * failing request does the same system calls as the others until the
 * open: to see what led to the failure, a tracer must keep each request's
 * trace until it knows how the request ended (speculative tracing).
 * request_serve and request_path are not inlined, so the pid provider has
 * their entry and return probes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const files[] = { "/scripts/hello.d", "/scripts/tick.d", "/scripts/profile.d" };

/* request_path: the file request ID asks for. */
__attribute__((noinline)) const char *request_path(long id, long bad)
{
	return id == bad ? "/scripts/missing.d" : files[id % 3];
}

/* request_serve: serve one request; the bytes served, or -1. */
__attribute__((noinline)) long request_serve(long id, long bad, int out)
{
	static char buf[512];
	long total = 0, n;

	(void)getpid();                           /* "log the request" */
	int fd = open(request_path(id, bad), O_RDONLY);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += write(out, buf, n);
	close(fd);
	return total;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100, bad = argc > 2 ? atol(argv[2]) : 37;
	int out = open("/dev/null", O_WRONLY), failed = 0;

	if (out < 0)
		return 1;
	for (long id = 0; id < n; id++)
		failed += request_serve(id, bad, out) < 0;
	printf("reqs: %ld requests, %d failed\n", n, failed);
	return 0;
}
