/*
 * churn [N] - N rounds (default 1000) of malloc and free of assorted
 * sizes, checking each block's contents; the heap grows through brk.
 * USDT probes churn<PID>:churn:main:alloc (arg0 = size, arg1 = block) and
 * churn<PID>:churn:main:free (arg0 = block) mark each allocation and free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "userland/libc/usdt.h"

#define SLOTS 64

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1000;
	unsigned char *slot[SLOTS] = { 0 };
	size_t size[SLOTS] = { 0 };
	unsigned seed = 1;

	for (long r = 0; r < rounds; r++) {
		int i = (int)((seed = seed * 1103515245u + 12345u) >> 16) % SLOTS;
		if (slot[i] != NULL) {
			for (size_t k = 0; k < size[i]; k++)
				if (slot[i][k] != (unsigned char)(i + k)) {
					printf("churn: block %d corrupt\n", i);
					return 1;
				}
			DTRACE_PROBE1(churn, free, slot[i]);
			free(slot[i]);
		}
		size[i] = 1 + (seed >> 8) % 8192;
		slot[i] = malloc(size[i]);
		DTRACE_PROBE2(churn, alloc, size[i], slot[i]);
		if (slot[i] == NULL) {
			printf("churn: out of memory\n");
			return 1;
		}
		for (size_t k = 0; k < size[i]; k++)
			slot[i][k] = (unsigned char)(i + k);
	}
	printf("churn: %ld rounds\n", rounds);
	return 0;
}
