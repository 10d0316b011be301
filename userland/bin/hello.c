/*
 * hello - the first user program: prints a greeting, its arguments, and a
 * floating-point number (newlib's printf("%f") runs on SSE, so this also
 * shows that the kernel keeps each process's FPU/SSE registers).
 *
 *   /bin/hello a b   ->  hello, world
 *                        argv[1] = a
 *                        argv[2] = b
 *                        pi is about 3.141593
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	volatile double pi = 3.14159265358979;

	printf("hello, world\n");
	for (int i = 1; i < argc; i++)
		printf("argv[%d] = %s\n", i, argv[i]);
	printf("pi is about %f\n", pi);
	return 0;
}
