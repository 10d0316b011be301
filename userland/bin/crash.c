/*
 * crash - die of a fault in user mode, to show that the kernel survives it.
 *
 *   crash null      store through a NULL pointer        (Segmentation fault)
 *   crash jump      jump to an address with no code     (Segmentation fault)
 *   crash divide    divide by zero                      (Floating point exception)
 *   crash stack     recurse until the stack runs out    (Segmentation fault)
 *   crash kernel    read kernel memory                  (Segmentation fault)
 */
#include <stdio.h>
#include <string.h>

static volatile int zero;

static int recurse(volatile char *prev, int depth)
{
	volatile char frame[512];

	frame[0] = prev != NULL ? prev[0] : 1;
	if (depth == -1)                 /* never: it only keeps gcc from calling it infinite */
		return 0;
	return recurse(frame, depth + 1) + frame[0];
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "null";

	if (strcmp(mode, "null") == 0)
		*(volatile int *)0 = 1;
	else if (strcmp(mode, "jump") == 0)
		((void (*)(void))0xdead0000)();
	else if (strcmp(mode, "divide") == 0) {
		volatile unsigned q = 1, d = (unsigned)zero;
		return (int)(q / d);                 /* volatile: gcc cannot fold the division away */
	}
	else if (strcmp(mode, "stack") == 0)
		return recurse(NULL, 0);
	else if (strcmp(mode, "kernel") == 0)
		return *(volatile int *)0xffffffff80100000UL;
	fprintf(stderr, "usage: crash [null | jump | divide | stack | kernel]\n");
	return 2;
}
