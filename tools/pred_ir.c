/*
 * tools/pred_ir.c: what one predicate costs on the host, as Sonde's
 * compiler emits it.
 *
 *   pred_ir [N] ['D predicate']
 *
 * Compiles "fbt::f:entry /PRED/ { }" (default PRED: arg0 > 100 && arg1 != 0,
 * the example) with dt_compile(), prints its DIF size, and runs the
 * predicate's DIFO N times (default 100000) through dif_emulate() with
 * arg0 = 200, arg1 = 1 (true: both comparisons run).  Run it under
 * callgrind to count host instructions per evaluation:
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
 *       build/host/dlang/pred_ir 100000
 *   callgrind_annotate --inclusive=yes /tmp/cg.out | grep dif_emulate
 *
 * Ir per evaluation = dif_emulate's inclusive Ir / N (tools/bench_pred.sh
 * does exactly that).  Reproduce: make pred-bench.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlang/dt.h"
#include "tests/dif/dif_hostenv.h"

#define ARENA_SIZE (16u << 20)

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	const char *pred = argc > 2 ? argv[2] : "arg0 > 100 && arg1 != 0";
	char src[512];
	snprintf(src, sizeof (src), "fbt::f:entry /%s/ { }", pred);
	void *arena = malloc(ARENA_SIZE);
	dt_prog *p;
	dt_error e;
	if (arena == NULL || dt_compile(src, strlen(src), NULL, arena,
	    ARENA_SIZE, &p, &e) != 0 || p->dp_nclauses != 1 ||
	    p->dp_clauses[0].cl_pred == NULL) {
		fprintf(stderr, "pred_ir: cannot compile %s\n", src);
		return (1);
	}
	const dif_difo_t *dp = p->dp_clauses[0].cl_pred;
	static struct dif_hostenv h;
	static uint8_t scratch[4096];
	dif_state_t st;
	dif_hostenv_init(&h);
	dif_state_init(&st, &h.env, scratch, sizeof (scratch), 0);
	st.ds_args[0] = 200;
	st.ds_args[1] = 1;
	uint64_t v = 0, trues = 0;
	for (long i = 0; i < n; i++) {
		if (dif_emulate(dp, &st, &v) != 0)
			return (1);
		trues += v != 0;
	}
	printf("pred_ir: /%s/: %u DIF instructions, %.1f executed per run, "
	    "%llu of %ld true\n", pred, dp->dd_ninsns,
	    (double)st.ds_insns / (double)n, (unsigned long long)trues, n);
	free(arena);
	return (0);
}
