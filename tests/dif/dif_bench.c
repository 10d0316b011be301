/*
 * tests/dif/dif_bench.c: how fast the DIF interpreter is on the host.
 *
 * For each program of a fixed set (arithmetic, branches, loads, string
 * subroutines, the typical predicate) it runs dif_emulate() in a loop,
 * measures wall time with CLOCK_MONOTONIC, and reports the median over
 * RUNS repetitions of: ns per executed DIF instruction (the interpreter
 * counts executed instructions in ds_insns) and ns per program run.
 * The predicate `arg0 > 100 && arg1 != 0` is reported per evaluation,
 * taken both ways; the target is < 100 ns.
 *
 *   dif_bench [OUT.json]
 *
 * The in-guest figure (guest instructions per DIF instruction under
 * -icount) needs the kernel and is not measured here.
 */
#define _POSIX_C_SOURCE 200809L
#include "dif/dif.h"
#include "tests/dif/dif_hostenv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNS 9

/* The predicate as a code generator emits it: 10 instructions when true. */
static const char pred_src[] =
	"	ldgs arg0, %r1\n"
	"	setx 100, %r2\n"
	"	cmp %r1, %r2\n"
	"	ble F\n"
	"	ldgs arg1, %r1\n"
	"	tst %r1\n"
	"	be F\n"
	"	setx 1, %r1\n"
	"	ret %r1\n"
	"F:	ret %r0\n";

static char arith_src[8192], branch_src[8192], load_src[8192];

static const char string_src[] =
	".rtype string\n"
	"	sets \"kmem_cache_alloc\", %r1\n"
	"	pushtr str, %r0, %r1\n"
	"	call strlen, %r2\n"
	"	sets \"_entry\", %r3\n"
	"	pushtr str, %r0, %r1\n"
	"	pushtr str, %r0, %r3\n"
	"	call strjoin, %r4\n"
	"	sets \"cache\", %r5\n"
	"	pushtr str, %r0, %r4\n"
	"	pushtr str, %r0, %r5\n"
	"	call strstr, %r6\n"
	"	ret %r6\n";

static void gen_programs(void)
{
	char *p = arith_src;

	p += sprintf(p, "\tldgs arg0, %%r1\n\tldgs arg1, %%r2\n");
	for (int i = 0; i < 40; i++)
		p += sprintf(p, "\tadd %%r1, %%r2, %%r3\n\txor %%r3, %%r1, %%r4\n"
		             "\tshl %%r4, %%r2, %%r5\n\tmul %%r5, %%r3, %%r1\n"
		             "\tsub %%r1, %%r4, %%r2\n");
	sprintf(p, "\tret %%r1\n");
	p = branch_src;
	p += sprintf(p, "\tldgs arg0, %%r1\n\tldgs arg1, %%r2\n");
	for (int i = 0; i < 60; i++)
		p += sprintf(p, "\tcmp %%r1, %%r2\n\tbgu B%d\n\tadd %%r1, %%r2, %%r1\nB%d:\n",
		             i, i);
	sprintf(p, "\tret %%r1\n");
	p = load_src;
	p += sprintf(p, "\tsetx 64, %%r1\n\tallocs %%r1, %%r6\n\tsetx 0x100000, %%r7\n");
	for (int i = 0; i < 40; i++)
		p += sprintf(p, "\tldx [%%r6], %%r2\n\tldub [%%r7], %%r3\n"
		             "\tadd %%r2, %%r3, %%r4\n\tstx %%r4, [%%r6]\n");
	sprintf(p, "\tret %%r4\n");
}

struct prog {
	const char *name;
	const char *src;
	uint64_t arg0, arg1;
	long iters;
	dif_difo_t dp;
};

static void build(struct prog *pr)
{
	dif_asmbuf_t ab = { calloc(4096, 4), 4096, calloc(256, 8), 256,
	                    calloc(4096, 1), 4096, calloc(16, sizeof(dif_var_t)), 16 };
	char err[128];

	if (dif_asm(pr->src, strlen(pr->src), &ab, &pr->dp, err, sizeof(err)) != 0 ||
	    dif_validate(&pr->dp, 0, NULL, NULL) != 0) {
		fprintf(stderr, "dif_bench: %s: %s\n", pr->name, err);
		exit(1);
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median over RUNS of (ns per run, ns per instruction). */
static void measure(struct prog *pr, double *per_run, double *per_insn,
                    double *insns)
{
	static struct dif_hostenv h;
	static uint8_t scratch[8192];
	double runs[RUNS], insn[RUNS];
	dif_state_t st;
	uint64_t rv, sink = 0;

	dif_hostenv_init(&h);
	dif_state_init(&st, &h.env, scratch, sizeof(scratch), 0);
	st.ds_args[0] = pr->arg0;
	st.ds_args[1] = pr->arg1;
	for (int r = 0; r < RUNS; r++) {
		double t0;
		st.ds_insns = 0;
		t0 = now_ns();
		for (long i = 0; i < pr->iters; i++) {
			st.ds_scratch_used = 0;
			if (dif_emulate(&pr->dp, &st, &rv) != 0) {
				fprintf(stderr, "dif_bench: %s faulted\n", pr->name);
				exit(1);
			}
			sink += rv;
		}
		runs[r] = (now_ns() - t0) / pr->iters;
		insn[r] = runs[r] / ((double)st.ds_insns / pr->iters);
		*insns = (double)st.ds_insns / pr->iters;
	}
	qsort(runs, RUNS, sizeof(double), cmp_double);
	qsort(insn, RUNS, sizeof(double), cmp_double);
	*per_run = runs[RUNS / 2];
	*per_insn = insn[RUNS / 2];
	if (sink == 42)
		putchar(' ');
}

int main(int argc, char **argv)
{
	struct prog progs[] = {
		{ "arithmetic", arith_src, 3, 5, 200000, { 0 } },
		{ "branches", branch_src, 1, 2, 200000, { 0 } },
		{ "loads", load_src, 0, 0, 200000, { 0 } },
		{ "strings", string_src, 0, 0, 200000, { 0 } },
		{ "predicate_true", pred_src, 101, 5, 2000000, { 0 } },
		{ "predicate_false", pred_src, 50, 5, 2000000, { 0 } },
	};
	size_t n = sizeof(progs) / sizeof(progs[0]);
	double run[8], ins[8], cnt[8], geo = 0;
	FILE *js;

	gen_programs();
	printf("DIF interpreter on the host (median of %d runs)\n", RUNS);
	printf("%-16s %10s %12s %12s\n", "program", "insns/run", "ns/run", "ns/insn");
	for (size_t i = 0; i < n; i++) {
		build(&progs[i]);
		measure(&progs[i], &run[i], &ins[i], &cnt[i]);
		printf("%-16s %10.0f %12.1f %12.2f\n", progs[i].name, cnt[i], run[i], ins[i]);
	}
	for (size_t i = 0; i < 4; i++)
		geo += ins[i] / 4;
	printf("mean ns per DIF instruction (arithmetic, branches, loads, strings): %.2f\n", geo);
	printf("typical predicate arg0 > 100 && arg1 != 0: %.1f ns (true, %0.f insns), "
	       "%.1f ns (false, %.0f insns); target < 100 ns: %s\n", run[4], cnt[4],
	       run[5], cnt[5], run[4] < 100 && run[5] < 100 ? "met" : "NOT MET");
	if (argc < 2)
		return 0;
	if ((js = fopen(argv[1], "w")) == NULL) {
		perror(argv[1]);
		return 1;
	}
	fprintf(js, "{\n  \"command\": \"make dif-bench\",\n  \"runs\": %d,\n  \"programs\": {\n", RUNS);
	for (size_t i = 0; i < n; i++)
		fprintf(js, "    \"%s\": {\"insns_per_run\": %.0f, \"ns_per_run\": %.2f, "
		        "\"ns_per_insn\": %.3f}%s\n", progs[i].name, cnt[i], run[i], ins[i],
		        i + 1 < n ? "," : "");
	fprintf(js, "  },\n  \"ns_per_insn_mean\": %.3f,\n  \"predicate_ns\": %.2f,\n"
	        "  \"predicate_target_ns\": 100\n}\n", geo, run[4]);
	fclose(js);
	printf("wrote %s\n", argv[1]);
	return 0;
}
