/*
 * tests/fuzz/dof_seed.c: the DOF fuzzer's seeds: each D file named on the
 * command line that compiles on the host (no kernel types, no probe
 * matching) is written as DOF into DIR/NAME.dof.
 *
 * Usage: dof_seed DIR FILE.d...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlang/dt_prog.h"

#define ARENA (8u << 20)

int main(int argc, char **argv)
{
	static char src[1 << 20];
	void *arena = malloc(ARENA);
	int written = 0;

	for (int i = 2; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		if (f == NULL)
			continue;
		size_t n = fread(src, 1, sizeof(src), f);
		fclose(f);
		dt_prog *p;
		dt_error e;
		if (dt_compile(src, n, NULL, arena, ARENA, &p, &e) != 0)
			continue;
		size_t len = dt_dof_write(p, NULL, 0);
		void *b = malloc(len);
		dt_dof_write(p, b, len);
		char out[4096];
		snprintf(out, sizeof(out), "%s/%d.dof", argv[1], i);
		if ((f = fopen(out, "wb")) != NULL) {
			fwrite(b, 1, len, f);
			fclose(f);
			written++;
		}
		free(b);
	}
	printf("dof_seed: %d seeds\n", written);
	return 0;
}
