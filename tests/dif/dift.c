/*
 * tests/dif/dift.c: the DIF vector runner.
 *
 * A vector (tests/dif/NAME.dift) is a text file of sections:
 *
 *   # what the vector asserts (comment lines before the first section)
 *   -- asm         the program, in dif_asm's text form (required)
 *   -- args        arg0 arg1 ... (numbers)
 *   -- options     strsize=N scratch=N runs=N destructive user
 *   -- mem         lines "ADDR \"string\"", "ADDR bytes 01 02 ..", "ADDR u64 V"
 *                  (model addresses, see dif_hostenv.h)
 *   -- result      the expected return value: a number, or "string"
 *   -- error       a fault: NAME [pc=N] [addr=X]
 *                  or a rejection: "invalid" then one line per expected
 *                  problem: [pc=N] text-contained-in-the-reason
 *
 * Each vector goes through: assemble, validate, the disassemble/reassemble
 * round trip (bit-exact DIFO and identical text), then the interpreter on
 * the host model, whose outcome must match -- result or -- error exactly.
 * Exit status 0 iff every vector passes.
 */
#include "dif/dif.h"
#include "dif/dif_jit.h"
#include "tests/dif/dif_hostenv.h"

#include <sys/mman.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP_INSNS 4096
#define CAP_INTS  1024
#define CAP_STRS  65536
#define CAP_VARS  256

struct asmbuf {
	dif_instr_t insns[CAP_INSNS];
	uint64_t ints[CAP_INTS];
	char strs[CAP_STRS];
	dif_var_t vars[CAP_VARS];
	dif_asmbuf_t ab;
};

struct vec {
	const char *name;
	char *sec[8];           /* asm args options mem result error */
};

enum { S_ASM, S_ARGS, S_OPTIONS, S_MEM, S_RESULT, S_ERROR, S_N };
static const char *const secnames[S_N] = {
	"asm", "args", "options", "mem", "result", "error" };

static bool verbose;
static bool jit;                    /* -jit: also run each vector the JIT translates */
static int jit_translated;          /* vectors run both ways */
static bool op_seen[256];          /* opcodes in vectors that ran */
static bool fault_seen[DIF_FAULT_MAX];
static bool subr_seen[DIF_SUBR_MAX];

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Split the text at "-- name" lines; sections point into text. */
static bool split(char *text, struct vec *v)
{
	char *line = text, *cur = NULL;
	int which = -1;

	memset(v->sec, 0, sizeof(v->sec));
	while (line && *line) {
		char *nl = strchr(line, '\n');
		if (strncmp(line, "-- ", 3) == 0) {
			if (nl)
				*nl = '\0';
			which = -1;
			for (int i = 0; i < S_N; i++)
				if (strcmp(line + 3, secnames[i]) == 0)
					which = i;
			if (which < 0) {
				fprintf(stderr, "%s: unknown section '%s'\n", v->name, line);
				return false;
			}
			cur = nl ? nl + 1 : line + strlen(line);
			v->sec[which] = cur;
			if (line > text)
				line[-1] = '\0';   /* end the previous section */
			line = cur;
			continue;
		}
		line = nl ? nl + 1 : NULL;
	}
	return v->sec[S_ASM] != NULL;
}

static void trim_sections(struct vec *v)
{
	/* a section ends where the next "-- " line began: cut at "\n-- " */
	for (int i = 0; i < S_N; i++) {
		char *s = v->sec[i], *e;
		if (s == NULL)
			continue;
		if ((e = strstr(s, "\n-- ")) != NULL)
			e[1] = '\0';
	}
}

struct problems {
	char text[64][160];
	uint32_t pc[64];
	int n;
};

static void collect(void *arg, uint32_t pc, const char *why)
{
	struct problems *p = arg;

	if (p->n < 64) {
		p->pc[p->n] = pc;
		snprintf(p->text[p->n], sizeof(p->text[0]), "%s", why);
		p->n++;
	}
}

static bool same_difo(const dif_difo_t *a, const dif_difo_t *b)
{
	return a->dd_ninsns == b->dd_ninsns && a->dd_nints == b->dd_nints &&
	    a->dd_strlen == b->dd_strlen && a->dd_nvars == b->dd_nvars &&
	    memcmp(&a->dd_rtype, &b->dd_rtype, sizeof(a->dd_rtype)) == 0 &&
	    memcmp(a->dd_insns, b->dd_insns, 4 * (size_t)a->dd_ninsns) == 0 &&
	    memcmp(a->dd_inttab, b->dd_inttab, 8 * (size_t)a->dd_nints) == 0 &&
	    memcmp(a->dd_strtab, b->dd_strtab, a->dd_strlen) == 0 &&
	    memcmp(a->dd_vartab, b->dd_vartab,
	           sizeof(dif_var_t) * (size_t)a->dd_nvars) == 0;
}

static struct asmbuf *newbuf(void)
{
	struct asmbuf *b = calloc(1, sizeof(*b));

	b->ab = (dif_asmbuf_t){ b->insns, CAP_INSNS, b->ints, CAP_INTS,
	                        b->strs, CAP_STRS, b->vars, CAP_VARS };
	return b;
}

/* Disassemble, reassemble, compare. */
static bool round_trip(const char *name, const dif_difo_t *dp)
{
	static char t1[1 << 20], t2[1 << 20];
	struct asmbuf *b = newbuf();
	dif_difo_t d2;
	char err[200];
	bool ok;

	dif_disasm(dp, t1, sizeof(t1));
	ok = dif_asm(t1, strlen(t1), &b->ab, &d2, err, sizeof(err)) == 0;
	if (!ok)
		fprintf(stderr, "%s: round trip: reassembly failed: %s\n%s", name, err, t1);
	else if (!same_difo(dp, &d2))
		fprintf(stderr, "%s: round trip: DIFO differs\n%s", name, t1), ok = false;
	else if (dif_disasm(&d2, t2, sizeof(t2)), strcmp(t1, t2) != 0)
		fprintf(stderr, "%s: round trip: text differs\n%s---\n%s", name, t1, t2),
		    ok = false;
	free(b);
	return ok;
}

struct opts {
	uint32_t strsize, scratch, runs;
	unsigned vflags, rflags;
};

static bool parse_options(const char *name, const char *s, struct opts *o)
{
	char word[64];
	int n;

	*o = (struct opts){ 0, 4096, 1, 0, 0 };
	while (s && sscanf(s, " %63s%n", word, &n) == 1) {
		s += n;
		if (sscanf(word, "strsize=%" SCNu32, &o->strsize) == 1 ||
		    sscanf(word, "scratch=%" SCNu32, &o->scratch) == 1 ||
		    sscanf(word, "runs=%" SCNu32, &o->runs) == 1)
			continue;
		if (strcmp(word, "destructive") == 0) {
			o->vflags |= DIF_VF_DESTRUCTIVE;
			o->rflags |= DIF_RUN_DESTRUCTIVE;
		} else if (strcmp(word, "user") == 0) {
			o->vflags |= DIF_VF_USER;
		} else {
			fprintf(stderr, "%s: unknown option %s\n", name, word);
			return false;
		}
	}
	return true;
}

/* Decode a quoted string with \n \t \\ \" \xHH into out. */
static size_t unquote(const char *s, char *out, size_t cap)
{
	size_t n = 0;

	for (s = strchr(s, '"') + 1; *s && *s != '"' && n + 1 < cap; s++) {
		char c = *s;
		if (c == '\\' && s[1]) {
			c = *++s;
			if (c == 'n') c = '\n';
			else if (c == 't') c = '\t';
			else if (c == 'x') { c = (char)strtol((char[3]){ s[1], s[2], 0 }, NULL, 16); s += 2; }
		}
		out[n++] = c;
	}
	out[n] = '\0';
	return n;
}

static bool setup_mem(const char *name, struct dif_hostenv *h, const char *s)
{
	char line[1024];

	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		uint64_t addr, v;
		char kind[16], buf[1024];
		uint8_t *p;
		int off, klen = 0;

		snprintf(line, sizeof(line), "%.*s", (int)len, s);
		s = nl ? nl + 1 : NULL;
		if (sscanf(line, " %" SCNx64 " %n", &addr, &off) < 1)
			continue;
		if (line[off] == '"') {
			size_t n = unquote(line + off, buf, sizeof(buf));
			p = dif_hostenv_ptr(h, addr, n + 1, addr >= HOSTENV_UMEM);
			if (!p) goto bad;
			memcpy(p, buf, n + 1);
		} else if (sscanf(line + off, "%15s %n", kind, &klen) == 1 &&
		           strcmp(kind, "u64") == 0) {
			v = strtoull(line + off + klen, NULL, 0);
			if (!(p = dif_hostenv_ptr(h, addr, 8, addr >= HOSTENV_UMEM)))
				goto bad;
			memcpy(p, &v, 8);
		} else if (strcmp(kind, "bytes") == 0) {
			char *q = line + off + klen, *e;
			for (uint64_t i = 0; (v = strtoul(q, &e, 16)), e != q; i++, q = e) {
				if (!(p = dif_hostenv_ptr(h, addr + i, 1, addr >= HOSTENV_UMEM)))
					goto bad;
				*p = (uint8_t)v;
			}
		} else {
			goto bad;
		}
		continue;
bad:
		fprintf(stderr, "%s: bad -- mem line: %s\n", name, line);
		return false;
	}
	return true;
}

/* Does the validator's report match the expected "invalid" list? */
static bool check_invalid(const char *name, const char *want,
                          const struct problems *got)
{
	char line[256];
	bool ok = true;

	want = strchr(want, '\n');
	while (want && *++want) {
		const char *nl = strchr(want, '\n');
		char *text = line;
		unsigned pc = DIF_PC_NONE;
		bool found = false;
		int n = 0;

		snprintf(line, sizeof(line), "%.*s", nl ? (int)(nl - want) : (int)strlen(want), want);
		want = nl;
		if (sscanf(line, " pc=%u %n", &pc, &n) >= 1)
			text = line + n;
		while (*text == ' ')
			text++;
		if (*text == '\0')
			continue;
		for (int i = 0; i < got->n; i++)
			if (strstr(got->text[i], text) && (pc == DIF_PC_NONE || got->pc[i] == pc))
				found = true;
		if (!found) {
			fprintf(stderr, "%s: expected problem not reported: %s\n", name, line);
			ok = false;
		}
	}
	return ok;
}

static bool check_fault(const char *name, const char *want, const dif_state_t *st,
                        int f)
{
	char fname[32];
	const char *p;
	unsigned long long addr;
	unsigned pc;

	if (sscanf(want, " %31s", fname) != 1)
		return false;
	if (f == 0 || strcmp(dif_fault_name((unsigned)f), fname) != 0) {
		fprintf(stderr, "%s: expected fault %s, got %s\n", name, fname,
		        f ? dif_fault_name((unsigned)f) : "success");
		return false;
	}
	if ((p = strstr(want, "pc=")) && sscanf(p, "pc=%u", &pc) == 1 &&
	    pc != st->ds_fault.df_pc) {
		fprintf(stderr, "%s: fault pc %u, expected %u\n", name, st->ds_fault.df_pc, pc);
		return false;
	}
	if ((p = strstr(want, "addr=")) && sscanf(p, "addr=%llx", &addr) == 1 &&
	    addr != st->ds_fault.df_addr) {
		fprintf(stderr, "%s: fault addr 0x%" PRIx64 ", expected 0x%llx\n", name,
		        st->ds_fault.df_addr, addr);
		return false;
	}
	return true;
}

static bool check_result(const char *name, const char *want, uint64_t rv,
                         struct dif_hostenv *h, const dif_state_t *st,
                         const dif_difo_t *dp)
{
	char exp[1024], got[1024];
	const char *q = want + strspn(want, " \t\n");

	if (*q == '"') {
		unquote(q, exp, sizeof(exp));
		if (!dif_hostenv_string(h, rv, got, sizeof(got), st, dp)) {
			fprintf(stderr, "%s: result 0x%" PRIx64 " is not a readable string\n",
			        name, rv);
			return false;
		}
		if (strcmp(exp, got) != 0) {
			fprintf(stderr, "%s: result \"%s\", expected \"%s\"\n", name, got, exp);
			return false;
		}
		return true;
	}
	if (strtoull(q, NULL, 0) != rv && (uint64_t)strtoll(q, NULL, 0) != rv) {
		fprintf(stderr, "%s: result %" PRIu64 " (0x%" PRIx64 ", %" PRId64
		        "), expected %s", name, rv, rv, (int64_t)rv, q);
		return false;
	}
	return true;
}

/*
 * jit_same: -jit.  When the JIT translates the vector's program, run the
 * native code as often as the interpreter ran, from the state it started
 * from (hostenv h0, state st0, scratch sc0), and require what it left: the
 * same fault (code, pc, address) or value, the same scratch, variables and
 * memory, the same rand() and strtok() state.  The JIT's state is left in
 * place, so the vector's checks below see the native code's results.
 */
static bool jit_same(const char *path, const dif_difo_t *dp, struct dif_hostenv *h,
                     const struct dif_hostenv *h0, dif_state_t *st, const dif_state_t *st0,
                     uint8_t *scratch, const uint8_t *sc0, size_t n, uint32_t runs, int f,
                     uint64_t rv)
{
	static uint8_t code[1 << 18];
	static struct dif_hostenv hi;
	static uint8_t sci[1 << 16];
	size_t len = dif_jit_translate(dp, code, sizeof(code));

	if (len == 0)
		return true;                 /* stays on the interpreter */
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return false;
	memcpy(m, code, len);
	if (mprotect(m, len, PROT_READ | PROT_EXEC) != 0) {
		munmap(m, len);
		return false;
	}
	dif_state_t sti = *st;
	memcpy(&hi, h, sizeof(hi));
	memcpy(sci, scratch, n);
	memcpy(h, h0, sizeof(*h));
	*st = *st0;
	memcpy(scratch, sc0, n);
	uint64_t jv = 0;
	int jf = 0;
	for (uint32_t r = 0; r < runs && jf == 0; r++) {
		st->ds_scratch_used = 0;
		jf = ((dif_jit_fn)m)(st, &jv);
	}
	munmap(m, len);
	jit_translated++;
	st->ds_insns = sti.ds_insns;
	bool same = jf == f && (f == 0 ? jv == rv : st->ds_fault.df_pc == sti.ds_fault.df_pc &&
	                                        st->ds_fault.df_addr == sti.ds_fault.df_addr) &&
	            st->ds_fault.df_code == sti.ds_fault.df_code;
	if (!same) {
		fprintf(stderr, "%s: JIT differs: fault %d pc %u addr 0x%" PRIx64 " value 0x%" PRIx64
		        ", interpreter fault %d pc %u addr 0x%" PRIx64 " value 0x%" PRIx64 "\n",
		        path, jf, st->ds_fault.df_pc, st->ds_fault.df_addr, jv, f, sti.ds_fault.df_pc,
		        sti.ds_fault.df_addr, rv);
		return false;
	}
	if (memcmp(h, &hi, sizeof(hi)) != 0 || memcmp(scratch, sci, n) != 0 ||
	    st->ds_rand != sti.ds_rand || st->ds_strtok != sti.ds_strtok ||
	    st->ds_scratch_used != sti.ds_scratch_used) {
		fprintf(stderr, "%s: JIT differs: memory, variables, scratch or state\n", path);
		return false;
	}
	return true;
}

static bool run_vector(const char *path)
{
	static struct dif_hostenv h;
	static uint8_t scratch[1 << 16];
	struct vec v = { .name = path };
	struct asmbuf *b = newbuf();
	struct problems probs = { .n = 0 };
	struct opts o;
	dif_difo_t dp;
	dif_state_t st;
	char err[256], *text = slurp(path);
	uint64_t rv = 0;
	int f = 0;
	bool ok = false, want_invalid;

	if (text == NULL || !split(text, &v))
		goto out;
	trim_sections(&v);
	if (!v.sec[S_RESULT] == !v.sec[S_ERROR]) {
		fprintf(stderr, "%s: needs exactly one of -- result, -- error\n", path);
		goto out;
	}
	if (!parse_options(path, v.sec[S_OPTIONS], &o))
		goto out;
	if (dif_asm(v.sec[S_ASM], strlen(v.sec[S_ASM]), &b->ab, &dp, err, sizeof(err))) {
		fprintf(stderr, "%s: asm: %s\n", path, err);
		goto out;
	}
	if (!round_trip(path, &dp))
		goto out;
	dif_validate(&dp, o.vflags, collect, &probs);
	want_invalid = v.sec[S_ERROR] && strncmp(v.sec[S_ERROR] +
	    strspn(v.sec[S_ERROR], " \n"), "invalid", 7) == 0;
	if (want_invalid) {
		ok = probs.n > 0 && check_invalid(path, v.sec[S_ERROR], &probs);
		if (probs.n == 0)
			fprintf(stderr, "%s: expected rejection, validator accepted\n", path);
		goto out;
	}
	if (probs.n > 0) {
		for (int i = 0; i < probs.n; i++)
			fprintf(stderr, "%s: pc %d: %s\n", path, (int)probs.pc[i], probs.text[i]);
		goto out;
	}
	dif_hostenv_init(&h);
	if (!setup_mem(path, &h, v.sec[S_MEM]))
		goto out;
	dif_state_init(&st, &h.env, scratch, o.scratch < sizeof(scratch) ?
	               o.scratch : sizeof(scratch), o.strsize);
	st.ds_flags = o.rflags;
	for (int i = 0; v.sec[S_ARGS] && i < DIF_NARGS; i++) {
		char *e, *s = v.sec[S_ARGS];
		for (int j = 0; j < i; j++)
			strtoull(s, &s, 0);
		st.ds_args[i] = strtoull(s, &e, 0);
		if (e == s)
			break;
	}
	for (uint32_t i = 0; i < dp.dd_ninsns; i++)
		op_seen[DIF_INSTR_OP(dp.dd_insns[i])] = true;
	for (uint32_t i = 0; i < dp.dd_ninsns; i++)
		if (DIF_INSTR_OP(dp.dd_insns[i]) == DIF_OP_CALL &&
		    DIF_INSTR_INDEX(dp.dd_insns[i]) < DIF_SUBR_MAX)
			subr_seen[DIF_INSTR_INDEX(dp.dd_insns[i])] = true;
	static struct dif_hostenv h0;
	static uint8_t sc0[sizeof(scratch)];
	dif_state_t st0 = st;
	memcpy(&h0, &h, sizeof(h0));
	memcpy(sc0, scratch, sizeof(scratch));
	for (uint32_t r = 0; r < o.runs && f == 0; r++) {
		st.ds_scratch_used = 0;
		f = dif_emulate(&dp, &st, &rv);
	}
	if (jit && !jit_same(path, &dp, &h, &h0, &st, &st0, scratch, sc0, sizeof(scratch), o.runs,
	                     f, rv))
		goto out;
	if (v.sec[S_ERROR]) {
		/* a vector expecting a fault has no result to check */
		if ((ok = check_fault(path, v.sec[S_ERROR], &st, f)))
			fault_seen[f] = true;
	} else if (f != 0)
		fprintf(stderr, "%s: unexpected fault %s at pc %u addr 0x%" PRIx64 "\n",
		        path, dif_fault_name((unsigned)f), st.ds_fault.df_pc,
		        st.ds_fault.df_addr);
	else
		ok = check_result(path, v.sec[S_RESULT], rv, &h, &st, &dp);
out:
	if (verbose || !ok)
		printf("%s %s\n", ok ? "PASS" : "FAIL", path);
	free(text);
	free(b);
	return ok;
}

/* -cover: every opcode ran in some vector and every fault was expected. */
static int coverage(void)
{
	int missing = 0;

	for (unsigned op = 0; op < 256; op++)
		if (dif_opinfo(op) && !op_seen[op]) {
			printf("dift: no vector runs opcode %s\n", dif_opinfo(op)->oi_name);
			missing++;
		}
	for (unsigned id = 0; id < DIF_SUBR_MAX; id++)
		if (dif_subrinfo(id) && !subr_seen[id]) {
			printf("dift: no vector calls %s\n", dif_subrinfo(id)->si_name);
			missing++;
		}
	for (unsigned f = 1; f < DIF_FAULT_MAX; f++)
		if (!fault_seen[f]) {
			printf("dift: no vector expects fault %s\n", dif_fault_name(f));
			missing++;
		}
	if (missing == 0)
		printf("dift: every opcode, subroutine and fault class is covered\n");
	return missing;
}

int main(int argc, char **argv)
{
	int pass = 0, fail = 0;
	bool cover = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
			continue;
		}
		if (strcmp(argv[i], "-cover") == 0) {
			cover = true;
			continue;
		}
		if (strcmp(argv[i], "-jit") == 0) {
			jit = true;
			continue;
		}
		if (run_vector(argv[i]))
			pass++;
		else
			fail++;
	}
	printf("dift: %d vectors, %d passed, %d failed\n", pass + fail, pass, fail);
	if (jit)
		printf("dift: %d of them also run translated by the JIT, with the same results\n",
		       jit_translated);
	if (cover && coverage() != 0)
		return 1;
	return fail ? 1 : 0;
}
