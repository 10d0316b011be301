/*
 * tests/fuzz/dt_fuzz.c: libFuzzer target for the D compiler, and for what
 * the compiler hands to DIF.
 *
 * Each input is D source text (run through dtrace -C's preprocessor,
 * dlang/dt_cpp.c, first when bit 2 of its first byte is set, as "/" of a
 * leading comment has it), compiled with dt_compile() exactly as the
 * guest does (a fixed arena, macro arguments $1..$3, $target, a symbol
 * table for `name).  A compile error is a normal outcome; a crash, a
 * sanitizer report, a read past the input (the input is not
 * NUL-terminated) or an error without a tag is a finding.
 *
 * A program that compiles is then treated as the kernel treats it
 * (trace/enable.c): every DIFO must pass dif_validate() with the kernel's
 * flags (DIF_VF_USER, and DIF_VF_DESTRUCTIVE only for -w). DIF's host
 * model has no user memory, so a program using copyin() and friends is
 * validated but not run. Then each clause is "fired"
 * twice on DIF's host model of the kernel (tests/dif/dif_hostenv.c): the
 * predicate, then every action's DIFOs in order, on one dif_state_t per
 * firing as the kernel does, so clause-locals and thread-locals flow
 * between them.  A DIFO that fails validation, or one that runs more than
 * dd_ninsns instructions, is a compiler (or validator) bug and aborts.  A
 * run-time fault is a normal outcome (the program may divide by zero);
 * faults are counted, not judged.
 *
 * Input: the D source; its first byte also picks options (bit 0: -w,
 * bit 1: -x strsize=8, which the sizing of strings must survive; bit 2:
 * -C's preprocessor first, see fuzz_cpp; bit 3: the kernel's CTF types,
 * see fuzz_ctf).  Seeds:
 * every D file of the tree (dlang.mk copies them into build/); dictionary:
 * tests/fuzz/d.dict.  With SONDE_FUZZ_STATS set, the process prints at
 * exit how many inputs compiled and how many DIFOs ran and faulted, which
 * shows whether the fuzzer reaches the VM at all.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlang/dt.h"
#include "dlang/dt_cpp.h"
#include "kernel/ctf.h"
#include "tests/dif/dif_hostenv.h"

#define ARENA_SIZE (4u << 20)

static struct {
	unsigned long inputs, compiled, difos, user, runs, faults;
} stats;

static struct dif_hostenv host;
static uint8_t scratch[4096];

static void stats_print(void)
{
	fprintf(stderr, "dt_fuzz: %lu inputs, %lu compiled, %lu DIFOs (%lu refused for user "
	        "memory), %lu runs, %lu faulted\n", stats.inputs, stats.compiled, stats.difos,
	        stats.user, stats.runs, stats.faults);
}

/* A few kernel symbols for `name (a data object is read through KMEM). */
static int fuzz_symlookup(void *arg, const char *name, uint64_t *addr, uint64_t *size)
{
	static const struct { const char *n; uint64_t a, s; } syms[] = {
		{ "ticks", HOSTENV_KMEM + 0x100, 8 }, { "ncpus", HOSTENV_KMEM + 0x108, 4 },
		{ "kmain", 0xffffffff80100000ull, 64 }, { "boot_flag", HOSTENV_KMEM + 0x10c, 1 },
	};

	(void)arg;
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		if (strcmp(name, syms[i].n) == 0) {
			*addr = syms[i].a;
			*size = syms[i].s;
			return 0;
		}
	return -1;
}

/* check_difo: validate as the kernel does, or abort; false if only user memory is refused. */
static bool check_difo(const dif_difo_t *d, unsigned vflags)
{
	static char buf[1 << 16];
	bool kernel_ok = dif_validate(d, vflags, NULL, NULL) == 0;

	if (!kernel_ok && dif_validate(d, vflags | DIF_VF_USER, NULL, NULL) != 0) {
		dif_disasm(d, buf, sizeof(buf));
		fprintf(stderr, "the compiler made DIF the validator rejects:\n%s", buf);
		abort();
	}
	dif_disasm(d, buf, sizeof(buf));
	stats.difos++;
	if (!kernel_ok)
		stats.user++;
	return kernel_ok;
}

/* run_difo: one run on the firing's state; the instruction bound must hold. */
static void run_difo(const dif_difo_t *d, dif_state_t *st)
{
	uint64_t rv, before = st->ds_insns;

	if (d == NULL)
		return;
	stats.runs++;
	if (dif_emulate(d, st, &rv) != 0)
		stats.faults++;
	if (st->ds_insns - before > d->dd_ninsns) {
		fprintf(stderr, "executed %llu > %u instructions\n",
		        (unsigned long long)(st->ds_insns - before), d->dd_ninsns);
		abort();
	}
}

/* fire_clause: the predicate, then (if true) every action's DIFOs in order. */
static void fire_clause(const dt_clause *cl, bool destructive, uint32_t strsize)
{
	dif_state_t st;
	uint64_t pv = 1;

	dif_state_init(&st, &host.env, scratch, sizeof(scratch), strsize);
	st.ds_flags = destructive ? DIF_RUN_DESTRUCTIVE : 0;
	for (int i = 0; i < DIF_NARGS; i++)
		st.ds_args[i] = i < 3 ? HOSTENV_KMEM + 16 * (uint64_t)i : (uint64_t)i;
	if (cl->cl_pred != NULL) {
		stats.runs++;
		if (dif_emulate(cl->cl_pred, &st, &pv) != 0) {
			stats.faults++;
			return;
		}
		if (st.ds_insns > cl->cl_pred->dd_ninsns)
			abort();
	}
	if (pv == 0)
		return;
	for (uint32_t a = 0; a < cl->cl_nacts; a++)
		for (uint32_t i = 0; i < cl->cl_acts[a].ac_nargs; i++)
			run_difo(cl->cl_acts[a].ac_args[i], &st);
}

static void check_prog(const dt_prog *p, bool destructive, uint32_t strsize)
{
	unsigned vflags = destructive ? DIF_VF_DESTRUCTIVE : 0;
	bool enabled = true;

	for (uint32_t c = 0; c < p->dp_nclauses; c++) {
		const dt_clause *cl = &p->dp_clauses[c];
		if (cl->cl_pred != NULL)
			enabled &= check_difo(cl->cl_pred, vflags);
		for (uint32_t a = 0; a < cl->cl_nacts; a++)
			for (uint32_t i = 0; i < cl->cl_acts[a].ac_nargs; i++)
				if (cl->cl_acts[a].ac_args[i] != NULL)
					enabled &= check_difo(cl->cl_acts[a].ac_args[i], vflags);
	}
	if (!enabled)
		return;              /* the kernel would refuse to enable it */
	dif_hostenv_reset(&host);
	for (int firing = 0; firing < 2; firing++)
		for (uint32_t c = 0; c < p->dp_nclauses; c++)
			fire_clause(&p->dp_clauses[c], destructive, strsize);
}

/* An input with bit 2 of its first byte set goes through dtrace -C's preprocessor first. */
static bool fuzz_open(void *arg, const char *path, const char **data, size_t *len)
{
	static const char header[] = "#define H(x, ...) (x + __VA_ARGS__)\n#include \"fuzz.h\"\n";

	(void)arg;
	if (strcmp(path, "fuzz.h") != 0 && strcmp(path, "lib/fuzz.h") != 0)
		return false;
	*data = header;                     /* includes itself: the depth limit must hold */
	*len = sizeof(header) - 1;
	return true;
}

static void fuzz_cpp(char **src, size_t *size)
{
	static char cpp_arena[1 << 20];
	static const char *const defs[] = { "DONE=1", "DTWO", "UTWO" };
	static const char *const dirs[] = { "lib" };
	dt_cpp_opts o = { .co_defs = defs, .co_ndefs = 3, .co_dirs = dirs, .co_ndirs = 1,
	                  .co_open = fuzz_open, .co_line_base = 1 };
	dt_cpp_error e;
	char *out;
	size_t n;

	if (dt_cpp(*src, *size, "fuzz.d", &o, cpp_arena, sizeof(cpp_arena), &out, &n, &e) != DT_CPP_OK)
		return;
	char *copy = malloc(n == 0 ? 1 : n);
	memcpy(copy, out, n);
	free(*src);
	*src = copy;
	*size = n;
}

/*
 * The kernel's types (kernel/ctf.h), when build/kernel.ctf exists where the
 * fuzzer runs (make runs it from the top of the tree): inputs whose first
 * byte has bit 3 set compile with them, so dlang/dt_ctf.c is fuzzed too.
 */
static const ctf_dict_t *
fuzz_ctf(void)
{
	static ctf_dict_t dict;
	static int state;            /* 0 not tried, 1 loaded, -1 none */
	if (state == 0) {
		state = -1;
		FILE *f = fopen("build/kernel.ctf", "rb");
		if (f != NULL) {
			fseek(f, 0, SEEK_END);
			long n = ftell(f);
			fseek(f, 0, SEEK_SET);
			void *b = malloc(n > 0 ? (size_t)n : 1);
			if (b != NULL && fread(b, 1, (size_t)n, f) == (size_t)n &&
			    ctf_open(&dict, b, (size_t)n, malloc) == 0)
				state = 1;
			fclose(f);
		}
	}
	return (state == 1 ? &dict : NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static void *arena;
	static const char *const argv[] = { "fuzz.d", "1", "foo", "0x10" };

	if (arena == NULL) {
		arena = malloc(ARENA_SIZE);
		dif_hostenv_init(&host);
		if (getenv("SONDE_FUZZ_STATS") != NULL)
			atexit(stats_print);
	}
	stats.inputs++;
	/* copy into an exact-size buffer so ASan catches reads past the end */
	char *src = malloc(size == 0 ? 1 : size);
	memcpy(src, data, size);
	if (size > 0 && (data[0] & 4))
		fuzz_cpp(&src, &size);
	dt_opts o;
	memset(&o, 0, sizeof (o));
	o.o_argv = argv;
	o.o_argc = 4;
	o.o_target = 1234;
	o.o_destructive = size > 0 && (data[0] & 1);
	o.o_strsize = size > 0 && (data[0] & 2) ? 8 : 0;
	o.o_symlookup = fuzz_symlookup;
	if (size > 0 && (data[0] & 8))
		o.o_ctf = fuzz_ctf();
	dt_prog *p;
	dt_error err;
	if (dt_compile(src, size, &o, arena, ARENA_SIZE, &p, &err) == 0) {
		stats.compiled++;
		check_prog(p, o.o_destructive, o.o_strsize);
	} else {
		char msg[1024];
		if (err.de_tag == NULL)
			abort();
		dt_error_format(&err, true, msg, sizeof (msg));
	}
	free(src);
	return (0);
}
