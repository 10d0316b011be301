/*
 * tools/pred_ir.c: what one predicate costs on the host, as Sonde's
 * compiler emits it.
 *
 *   pred_ir [N] ['D predicate'] [jit]
 *
 * Compiles "fbt::f:entry /PRED/ { }" (default PRED: arg0 > 100 && arg1 != 0,
 * the usual example) with dt_compile(), prints its DIF size, and runs the
 * predicate's DIFO N times (default 100000) through dif_emulate() with
 * arg0 = 200, arg1 = 1 (true: both comparisons run).  Run it under
 * callgrind to count host instructions per evaluation:
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
 *       build/host/dlang/pred_ir 100000
 *   callgrind_annotate --inclusive=yes /tmp/cg.out | grep dif_emulate
 *
 * Ir per evaluation = dif_emulate's inclusive Ir / N (tools/bench_pred.py
 * does exactly that).  With "jit", the predicate runs translated by the
 * DIF JIT (arch/x86_64/dif_jit.c, in an mmap'd page) through pred_jit_run,
 * whose inclusive Ir / N is the figure (the call into the native code
 * included).  Reproduce: make pred-bench.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include "dif/dif_jit.h"
#include "dlang/dt.h"
#include "tests/dif/dif_hostenv.h"

#define ARENA_SIZE (16u << 20)

/* One translated evaluation (a function of its own, for callgrind). */
__attribute__((noinline)) static int
pred_jit_run(dif_jit_fn fn, dif_state_t *st, uint64_t *v)
{
	return (fn(st, v));
}

static dif_jit_fn
pred_jit(const dif_difo_t *dp)
{
	static uint8_t code[1 << 16];
	size_t len = dif_jit_translate(dp, code, sizeof (code));
	void *m = len ? mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : MAP_FAILED;
	if (m == MAP_FAILED)
		return (NULL);
	memcpy(m, code, len);
	return (mprotect(m, len, PROT_READ | PROT_EXEC) == 0 ? (dif_jit_fn)m :
	    NULL);
}

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
	dif_jit_fn fn = argc > 3 && strcmp(argv[3], "jit") == 0 ? pred_jit(dp) :
	    NULL;
	if (argc > 3 && fn == NULL) {
		fprintf(stderr, "pred_ir: the JIT does not translate /%s/\n", pred);
		return (1);
	}
	for (long i = 0; i < n; i++) {
		if ((fn ? pred_jit_run(fn, &st, &v) :
		    dif_emulate(dp, &st, &v)) != 0)
			return (1);
		trues += v != 0;
	}
	printf("pred_ir: /%s/: %u DIF instructions, %.1f executed per run, "
	    "%llu of %ld true%s\n", pred, dp->dd_ninsns,
	    fn ? 0.0 : (double)st.ds_insns / (double)n,
	    (unsigned long long)trues, n, fn ? " (JIT)" : "");
	free(arena);
	return (0);
}
