/*
 * tools/dtc_bench.c: host compile throughput of the D compiler.
 *
 *   dtc_bench [out.json]
 *
 * Generates a 1,000-line D script (100 clauses of 10 lines: a probe list,
 * a predicate, assignments to globals, thread-locals and arrays, string
 * subroutines, printf, aggregations), compiles it RUNS times with
 * dt_compile() and reports the median wall time of one compile and the
 * resulting lines per second.  The bar: under 20 ms.
 * Reproduce: make dlang-bench (or build/host/dlang/dtc_bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlang/dt.h"

#define RUNS 41
#define ARENA_SIZE (64u << 20)

static size_t
gen_script(char *buf, size_t cap, unsigned *lines)
{
	size_t n = 0;
	*lines = 0;
	for (int c = 0; c < 100; c++) {
		n += (size_t)snprintf(buf + n, cap - n,
		    "fbt::func%d*:entry, fbt::other%d:return\n"
		    "/pid != %d && (self->ts%d > 2 || execname == \"w%d\")/\n"
		    "{\n"
		    "\tself->ts%d = timestamp;\n"
		    "\tcount%d = arg0 * %d - (arg1 >> 3) + pid;\n"
		    "\tnames[execname, %d] = strjoin(probefunc, \"-x\");\n"
		    "\tprintf(\"%%s %%d %%x\\n\", execname, pid, arg%d);\n"
		    "\t@lat[probefunc, %d] = quantize(timestamp - self->ts%d);\n"
		    "\t@n%d = lquantize(arg2 %% 100, 0, 100, 10);\n"
		    "}\n",
		    c, c, c, c, c, c, c, c + 1, c, c % 10, c, c, c);
		*lines += 10;
	}
	return (n);
}

static double
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec * 1e9 + (double)ts.tv_nsec);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return ((x > y) - (x < y));
}

int
main(int argc, char **argv)
{
	static char src[256 << 10];
	unsigned lines;
	size_t len = gen_script(src, sizeof (src), &lines);
	void *arena = malloc(ARENA_SIZE);
	double t[RUNS];
	dt_prog *p;
	dt_error e;
	for (int r = 0; r < RUNS; r++) {
		double t0 = now_ns();
		if (dt_compile(src, len, NULL, arena, ARENA_SIZE, &p, &e) != 0) {
			fprintf(stderr, "dtc_bench: line %u: %s\n", e.de_line,
			    e.de_msg);
			return (1);
		}
		t[r] = now_ns() - t0;
	}
	qsort(t, RUNS, sizeof (t[0]), cmp_double);
	double ms = t[RUNS / 2] / 1e6;
	double lps = lines / (t[RUNS / 2] / 1e9);
	printf("dlang: compile %u lines (%zu bytes, %u clauses): median %.3f ms"
	    " over %d runs (min %.3f ms), %.0f lines/s, arena %zu KiB [%s 20 ms "
	    "bar]\n", lines, len, p->dp_nclauses, ms, RUNS, t[0] / 1e6, lps,
	    p->dp_arena_used >> 10,
	    ms < 20.0 ? "under the" : "OVER THE");
	if (argc > 1) {
		FILE *f = fopen(argv[1], "w");
		if (f == NULL) {
			perror(argv[1]);
			return (1);
		}
		fprintf(f, "{\n  \"dlang_compile_lines\": %u,\n"
		    "  \"dlang_compile_ms_median\": %.3f,\n"
		    "  \"dlang_compile_ms_min\": %.3f,\n"
		    "  \"dlang_compile_lines_per_s\": %.0f,\n"
		    "  \"dlang_compile_arena_bytes\": %zu,\n"
		    "  \"command\": \"make dlang-bench\"\n}\n",
		    lines, ms, t[0] / 1e6, lps, p->dp_arena_used);
		fclose(f);
	}
	free(arena);
	return (ms < 20.0 ? 0 : 1);
}
