/*
 * fsyncer DIR [N] - write files one after another, each made durable
 * with fsync(2) before the next begins; for killing a guest in the middle
 * of writing (tests/e2e/test_disk_crash.py).
 *
 * File k (DIR/kK, k = 0 .. N-1, default N 1000) holds SIZE bytes of a
 * pattern that depends on k and the offset (byte i is (k * 7 + i) & 0xff
 * plus i >> 8); after its fsync returns 0 the program prints
 *
 *   fsyncer: k3 durable
 *
 * and only then starts file k+1, so a line printed is a promise: file k
 * is on the disk whatever happens after.  Errors end it with status 1.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SIZE (20 * 1024 + 123)         /* several blocks, some indirect, a partial last one */

static unsigned char buf[SIZE];

int main(int argc, char **argv)
{
	char path[128];
	long n = argc > 2 ? atol(argv[2]) : 1000;

	if (argc < 2 || strlen(argv[1]) > 100) {
		fprintf(stderr, "usage: fsyncer DIR [N]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	for (long k = 0; k < n; k++) {
		for (long i = 0; i < SIZE; i++)
			buf[i] = (unsigned char)((k * 7 + i + (i >> 8)) & 0xff);
		snprintf(path, sizeof(path), "%s/k%ld", argv[1], k);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, SIZE) != SIZE || fsync(fd) != 0 || close(fd) != 0) {
			printf("fsyncer: %s: failed\n", path);
			return 1;
		}
		printf("fsyncer: k%ld durable\n", k);
	}
	return 0;
}
