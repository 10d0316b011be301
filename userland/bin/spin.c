/* spin [N] - burn CPU: N million loop iterations, or until killed (Ctrl-C) without N. */
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) * 1000000L : -1;
	volatile long i = 0;

	while (n < 0 || i < n)
		i++;
	return 0;
}
