/*
 * tests/unit/trace_dof_test.c: host unit tests of DOF, both halves: the
 * compiler's writer (dlang/dt_dof.c) and the kernel's loader (trace/dof.c).
 *
 *   - round trips: D programs compiled with dt_compile, written, loaded,
 *     and the loaded program compared with the compiled one field by field
 *     (everything but what DOF does not carry: print()'s type, provider
 *     definitions, the arena's size);
 *   - the DOF's header and section layout as DTrace documents it;
 *   - malformations: a good file with one thing broken (header, section
 *     headers, an index, a string, a DIF instruction, an action, a count, the
 *     arena) is refused with its errno and a message naming the fault.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dif/dof.h"
#include "dlang/dt.h"
#include "trace/dof.h"

enum {
#define DTRACE_ERR(NAME, n, msg) E_##NAME = -(n),
#include "trace/dtrace_errors.def"
#undef DTRACE_ERR
};

#define ARENA (8u << 20)
static uint8_t carena[ARENA];
static uint64_t karena_words[ARENA / 8];
static uint8_t *const karena = (uint8_t *)karena_words;

static const char *const progs[] = {
	"BEGIN { exit(0); }",
	"BEGIN",
	"syscall::read:entry, syscall::write:entry /pid == 42 && execname != \"x\"/ "
	"{ self->t = timestamp; @n[probefunc, execname] = count(); }\n"
	"syscall::read:return /self->t/ { @q = quantize(timestamp - self->t); self->t = 0; "
	"printf(\"%s %d %-8llx %5.2s\\n\", execname, pid, 12ULL, \"ab\"); }",
	"profile-97 { @l[cpu] = lquantize(arg0, 0, 100, 10); @ll = llquantize(arg0, 10, 0, 6, 20); "
	"@s = sum(1); @a = avg(2); @m = min(3); @x = max(4); @d = stddev(5); }\n"
	"END { printa(\"%@d %d\\n\", @l); printa(@s, @a); trunc(@l, 3); clear(@s); "
	"normalize(@a, 2); denormalize(@a); }",
	"BEGIN { s = speculation(); } tick-1s { speculate(s); trace(\"x\"); } "
	"tick-2s { commit(s); } tick-3s { discard(s); }",
	"fbt::vfs_*:entry { @[stack(5)] = count(); @u[ustack()] = count(); trace(arg0); "
	"stack(); ustack(3); sym(arg0); mod(arg0); tracemem(arg1, 32); usym(arg0); "
	"uaddr(arg0); umod(arg0); }",
	"#pragma D option quiet\n#pragma D option bufsize=8k\n"
	"BEGIN { a[1, \"x\"] = 3; b = \"str\"; setopt(\"quiet\"); trace(a[1, \"x\"]); "
	"printf(\"%s\", b); exit(1); }",
	"BEGIN { if (arg0 > 1) { trace(1); } else { trace(2); } }",
	"BEGIN { print(1 + 2); system(\"echo %d\", 1); chill(10); raise(9); stop(); "
	"breakpoint(); panic(); }",
};

static dt_prog *compile(const char *src)
{
	dt_prog *p = NULL;
	dt_error e;

	if (dt_compile(src, strlen(src), NULL, carena, ARENA, &p, &e) != 0) {
		fprintf(stderr, "compile: %s: %s\n", e.de_tag, e.de_msg);
		fail();
	}
	return p;
}

/* write: p as DOF, in a malloc'd buffer. */
static uint8_t *write_dof(const dt_prog *p, size_t *len)
{
	*len = dt_dof_write(p, NULL, 0);
	uint8_t *b = malloc(*len);
	assert_non_null(b);
	assert_int_equal(dt_dof_write(p, b, *len), *len);
	assert_int_equal(dt_dof_write(p, b, *len - 1), *len);  /* too small: size, no write */
	return b;
}

static int load(const uint8_t *b, size_t len, dt_prog **out, char *err, size_t errlen)
{
	return dof_load(b, len, karena, ARENA, out, err, errlen);
}

/* ---- comparing programs ---- */

static void same_difo(const dif_difo_t *a, const dif_difo_t *b)
{
	if (a == NULL || b == NULL) {
		assert_ptr_equal(a, b);
		return;
	}
	assert_true(a != b);
	assert_int_equal(a->dd_ninsns, b->dd_ninsns);
	assert_memory_equal(a->dd_insns, b->dd_insns, a->dd_ninsns * 4);
	assert_int_equal(a->dd_nints, b->dd_nints);
	if (a->dd_nints)
		assert_memory_equal(a->dd_inttab, b->dd_inttab, a->dd_nints * 8);
	assert_int_equal(a->dd_strlen, b->dd_strlen);
	if (a->dd_strlen)
		assert_memory_equal(a->dd_strtab, b->dd_strtab, a->dd_strlen);
	assert_int_equal(a->dd_nvars, b->dd_nvars);
	for (uint32_t i = 0; i < a->dd_nvars; i++) {
		assert_int_equal(a->dd_vartab[i].dv_name, b->dd_vartab[i].dv_name);
		assert_int_equal(a->dd_vartab[i].dv_id, b->dd_vartab[i].dv_id);
		assert_int_equal(a->dd_vartab[i].dv_scope, b->dd_vartab[i].dv_scope);
		assert_int_equal(a->dd_vartab[i].dv_kind, b->dd_vartab[i].dv_kind);
		assert_int_equal(a->dd_vartab[i].dv_flags, b->dd_vartab[i].dv_flags);
		assert_memory_equal(&a->dd_vartab[i].dv_type, &b->dd_vartab[i].dv_type, sizeof(dif_type_t));
	}
	assert_int_equal(a->dd_rtype.dt_kind, b->dd_rtype.dt_kind);
	assert_int_equal(a->dd_rtype.dt_flags, b->dd_rtype.dt_flags);
	assert_int_equal(a->dd_rtype.dt_size, b->dd_rtype.dt_size);
}

static void same_action(const dt_action *a, const dt_action *b)
{
	assert_int_equal(a->ac_kind, b->ac_kind);
	assert_int_equal(a->ac_line, b->ac_line);
	assert_int_equal(a->ac_nargs, b->ac_nargs);
	for (uint32_t k = 0; k < a->ac_nargs; k++)
		same_difo(a->ac_args[k], b->ac_args[k]);
	assert_int_equal(a->ac_fmt, b->ac_fmt);
	assert_int_equal(a->ac_naggs, b->ac_naggs);
	for (uint32_t k = 0; k < a->ac_naggs; k++)
		assert_int_equal(a->ac_aggs[k], b->ac_aggs[k]);
	assert_int_equal(a->ac_arg, b->ac_arg);
	assert_int_equal(a->ac_size, b->ac_size);
	assert_null(b->ac_type);
}

static void same_clause(const dt_clause *a, const dt_clause *b)
{
	assert_int_equal(a->cl_nprobes, b->cl_nprobes);
	for (uint32_t i = 0; i < a->cl_nprobes; i++) {
		assert_string_equal(a->cl_probes[i].pd_prov, b->cl_probes[i].pd_prov);
		assert_string_equal(a->cl_probes[i].pd_mod, b->cl_probes[i].pd_mod);
		assert_string_equal(a->cl_probes[i].pd_func, b->cl_probes[i].pd_func);
		assert_string_equal(a->cl_probes[i].pd_name, b->cl_probes[i].pd_name);
		assert_int_equal(a->cl_probes[i].pd_line, b->cl_probes[i].pd_line);
	}
	same_difo(a->cl_pred, b->cl_pred);
	assert_int_equal(a->cl_nacts, b->cl_nacts);
	for (uint32_t i = 0; i < a->cl_nacts; i++)
		same_action(&a->cl_acts[i], &b->cl_acts[i]);
	assert_int_equal(a->cl_line, b->cl_line);
	assert_int_equal(a->cl_destructive, b->cl_destructive);
	assert_int_equal(a->cl_speculative, b->cl_speculative);
}

static void same_prog(const dt_prog *a, const dt_prog *b)
{
	assert_int_equal(a->dp_nclauses, b->dp_nclauses);
	for (uint32_t c = 0; c < a->dp_nclauses; c++)
		same_clause(&a->dp_clauses[c], &b->dp_clauses[c]);
	assert_int_equal(a->dp_naggs, b->dp_naggs);
	for (uint32_t i = 0; i < a->dp_naggs; i++) {
		const dt_aggdesc *x = &a->dp_aggs[i], *y = &b->dp_aggs[i];
		assert_string_equal(x->ag_name, y->ag_name);
		assert_int_equal(x->ag_id, y->ag_id);
		assert_int_equal(x->ag_func, y->ag_func);
		assert_int_equal(x->ag_nkeys, y->ag_nkeys);
		assert_memory_equal(x->ag_keys, y->ag_keys, sizeof(x->ag_keys));
		assert_int_equal(x->ag_nparams, y->ag_nparams);
		assert_memory_equal(x->ag_params, y->ag_params, sizeof(x->ag_params));
	}
	assert_int_equal(a->dp_nformats, b->dp_nformats);
	for (uint32_t i = 0; i < a->dp_nformats; i++) {
		const dt_fmtdesc *x = &a->dp_formats[i], *y = &b->dp_formats[i];
		assert_string_equal(x->fd_text, y->fd_text);
		assert_int_equal(x->fd_printa, y->fd_printa);
		assert_int_equal(x->fd_nconvs, y->fd_nconvs);
		for (uint32_t k = 0; k < x->fd_nconvs; k++) {
			const dt_conv *u = &x->fd_convs[k], *v = &y->fd_convs[k];
			assert_int_equal(u->cv_kind, v->cv_kind);
			assert_string_equal(u->cv_spec, v->cv_spec);
			assert_string_equal(u->cv_name, v->cv_name);
			assert_int_equal(u->cv_flags, v->cv_flags);
			assert_int_equal(u->cv_width, v->cv_width);
			assert_int_equal(u->cv_prec, v->cv_prec);
			assert_int_equal(u->cv_textlen, v->cv_textlen);
			assert_int_equal(u->cv_star_width, v->cv_star_width);
			assert_int_equal(u->cv_star_prec, v->cv_star_prec);
			assert_int_equal(u->cv_ofmt, v->cv_ofmt);
		}
	}
	assert_int_equal(a->dp_noptions, b->dp_noptions);
	for (uint32_t i = 0; i < a->dp_noptions; i++) {
		assert_string_equal(a->dp_options[i].op_name, b->dp_options[i].op_name);
		assert_string_equal(a->dp_options[i].op_value, b->dp_options[i].op_value);
		assert_int_equal(a->dp_options[i].op_line, b->dp_options[i].op_line);
	}
	assert_int_equal(a->dp_nvars, b->dp_nvars);
	for (uint32_t i = 0; i < a->dp_nvars; i++) {
		const dt_vardesc *x = &a->dp_vars[i], *y = &b->dp_vars[i];
		assert_string_equal(x->vd_name, y->vd_name);
		assert_int_equal(x->vd_id, y->vd_id);
		assert_int_equal(x->vd_scope, y->vd_scope);
		assert_int_equal(x->vd_kind, y->vd_kind);
		assert_int_equal(x->vd_string, y->vd_string);
		assert_int_equal(x->vd_size, y->vd_size);
		assert_int_equal(x->vd_nkeys, y->vd_nkeys);
		assert_int_equal(x->vd_nstrkeys, y->vd_nstrkeys);
	}
	assert_int_equal(a->dp_destructive, b->dp_destructive);
	assert_int_equal(a->dp_strsize, b->dp_strsize);
	assert_null(b->dp_providers);
}

static void test_round_trips(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		dt_prog *p = compile(progs[i]), *q = NULL;
		size_t len;
		uint8_t *b = write_dof(p, &len);
		char err[256];
		int rc = load(b, len, &q, err, sizeof(err));
		if (rc != 0)
			fprintf(stderr, "program %zu: %d: %s\n", i, rc, err);
		assert_int_equal(rc, 0);
		same_prog(p, q);
		assert_true(q->dp_arena_used <= dof_arena_size(len));
		/* nothing of the file survives: wipe it and compare again */
		memset(b, 0xa5, len);
		same_prog(p, q);
		free(b);
	}
}

/* ---- the layout ---- */

static uint32_t r32(const uint8_t *b, size_t at) { uint32_t v; memcpy(&v, b + at, 4); return v; }
static uint64_t r64(const uint8_t *b, size_t at) { uint64_t v; memcpy(&v, b + at, 8); return v; }
static void w32(uint8_t *b, size_t at, uint32_t v) { memcpy(b + at, &v, 4); }
static void w64(uint8_t *b, size_t at, uint64_t v) { memcpy(b + at, &v, 8); }

/* sec: the header offset of the n'th section of type t (-1 if none). */
static long sec(const uint8_t *b, uint32_t t, int n)
{
	for (uint32_t i = 0; i < r32(b, DOF_HDR_SECNUM); i++) {
		size_t h = DOF_HDR_SIZE + (size_t)i * DOF_SEC_SIZE;
		if (r32(b, h + DOF_SEC_TYPE) == t && n-- == 0)
			return (long)h;
	}
	return -1;
}

static size_t data(const uint8_t *b, long h) { return (size_t)r64(b, (size_t)h + DOF_SEC_OFFSET); }

static void test_layout(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = write_dof(compile(progs[2]), &len);
	uint16_t one = 1;

	assert_memory_equal(b, "\x7f" "DOF", 4);
	assert_int_equal(b[DOF_ID_MODEL], DOF_MODEL_LP64);
	assert_int_equal(b[DOF_ID_ENCODING], *(uint8_t *)&one ? DOF_ENCODE_LSB : DOF_ENCODE_MSB);
	assert_int_equal(b[DOF_ID_VERSION], 2);
	assert_int_equal(b[DOF_ID_DIFVERS], 2);
	assert_int_equal(r32(b, DOF_HDR_HDRSIZE), 64);
	assert_int_equal(r32(b, DOF_HDR_SECSIZE), 32);
	assert_int_equal(r64(b, DOF_HDR_SECOFF), 64);
	assert_int_equal(r64(b, DOF_HDR_FILESZ), len);
	assert_int_equal(r32(b, DOF_HDR_SIZE + DOF_SEC_TYPE), DOF_SECT_STRTAB);   /* section 0 */
	/* two clauses, DTrace's section types for them */
	assert_true(sec(b, DOF_SECT_ECBDESC, 1) > 0 && sec(b, DOF_SECT_ECBDESC, 2) < 0);
	assert_true(sec(b, DOF_SECT_PROBEDESC, 0) > 0 && sec(b, DOF_SECT_ACTDESC, 0) > 0);
	assert_true(sec(b, DOF_SECT_DIFOHDR, 0) > 0 && sec(b, DOF_SECT_DIF, 0) > 0);
	assert_true(sec(b, DOF_SECT_INTTAB, 0) > 0 && sec(b, DOF_SECT_VARTAB, 0) > 0);
	/* the first clause's probes: syscall::read:entry and syscall::write:entry */
	long pd = sec(b, DOF_SECT_PROBEDESC, 0);
	assert_int_equal(r64(b, (size_t)pd + DOF_SEC_DSIZE), 2 * DOF_PD_SIZE);
	size_t strs = data(b, DOF_HDR_SIZE);
	assert_string_equal((char *)b + strs + r32(b, data(b, pd) + DOF_PD_PROVIDER), "syscall");
	assert_string_equal((char *)b + strs + r32(b, data(b, pd) + DOF_PD_SIZE + DOF_PD_FUNC), "write");
	/* the aggregation action's kind is DTrace's DTRACEAGG_COUNT */
	long ad = sec(b, DOF_SECT_ACTDESC, 0);
	assert_int_equal(r32(b, data(b, ad) + DOF_ACT_SIZE + DOF_ACT_KIND), DTRACEACT_AGGREGATION + 1);
	free(b);
}

/* ---- malformations ---- */

struct bad {
	const char *what;
	int rc;
	const char *msg;                     /* a part of the message */
};

static void refused(const uint8_t *b, size_t len, const struct bad *x)
{
	char err[256] = "";
	dt_prog *q = (dt_prog *)1;
	int rc = load(b, len, &q, err, sizeof(err));

	if (rc != x->rc || strstr(err, x->msg) == NULL)
		fprintf(stderr, "%s: got %d \"%s\", want %d \"%s\"\n", x->what, rc, err, x->rc, x->msg);
	assert_int_equal(rc, x->rc);
	assert_non_null(strstr(err, x->msg));
	assert_null(q);
}

typedef void mutate_fn(uint8_t *b, size_t *len);

static void m_short(uint8_t *b, size_t *len) { (void)b; *len = 10; }
static void m_magic(uint8_t *b, size_t *len) { (void)len; b[1] = 'X'; }
static void m_encoding(uint8_t *b, size_t *len)
{
	(void)len;
	b[DOF_ID_ENCODING] = b[DOF_ID_ENCODING] == DOF_ENCODE_LSB ? DOF_ENCODE_MSB : DOF_ENCODE_LSB;
}
static void m_version(uint8_t *b, size_t *len) { (void)len; b[DOF_ID_VERSION] = 9; }
static void m_difvers(uint8_t *b, size_t *len) { (void)len; b[DOF_ID_DIFVERS] = 1; }
static void m_iregs(uint8_t *b, size_t *len) { (void)len; b[DOF_ID_DIFIREG] = 16; }
static void m_hdrsize(uint8_t *b, size_t *len) { (void)len; w32(b, DOF_HDR_HDRSIZE, 60); }
static void m_filesz(uint8_t *b, size_t *len) { w64(b, DOF_HDR_FILESZ, *len + 1); }
static void m_secnum(uint8_t *b, size_t *len) { (void)len; w32(b, DOF_HDR_SECNUM, 0x7fffffff); }
static void m_secoff(uint8_t *b, size_t *len) { w64(b, DOF_HDR_SECOFF, *len - 8); }
static void m_align(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, (size_t)sec(b, DOF_SECT_DIF, 0) + DOF_SEC_ALIGN, 3);
}
static void m_misaligned(uint8_t *b, size_t *len)
{
	(void)len;
	long h = sec(b, DOF_SECT_DIF, 0);
	w64(b, (size_t)h + DOF_SEC_OFFSET, data(b, h) + 2);
}
static void m_outside(uint8_t *b, size_t *len)
{
	(void)len;
	w64(b, (size_t)sec(b, DOF_SECT_DIF, 0) + DOF_SEC_DSIZE, 1ULL << 62);
}
static void m_entsize(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, (size_t)sec(b, DOF_SECT_ACTDESC, 0) + DOF_SEC_ENTSIZE, 16);
}
static void m_partial(uint8_t *b, size_t *len)
{
	(void)len;
	long h = sec(b, DOF_SECT_INTTAB, 0);
	w64(b, (size_t)h + DOF_SEC_DSIZE, r64(b, (size_t)h + DOF_SEC_DSIZE) - 4);
}
static void m_index(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, data(b, sec(b, DOF_SECT_ECBDESC, 0)) + DOF_ECB_PROBES, 99999);
}
static void m_type(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, data(b, sec(b, DOF_SECT_ECBDESC, 0)) + DOF_ECB_PRED, 0);   /* the STRTAB */
}
static void m_stroff(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, data(b, sec(b, DOF_SECT_PROBEDESC, 0)) + DOF_PD_FUNC, 0x7ffffff0);
}
static void m_unterminated(uint8_t *b, size_t *len)
{
	(void)len;
	size_t h = DOF_HDR_SIZE;                     /* the program's string table */
	b[data(b, (long)h) + r64(b, h + DOF_SEC_DSIZE) - 1] = 'x';
}
static void m_dif(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, data(b, sec(b, DOF_SECT_DIF, 0)), 0xff000000u);    /* no such opcode */
}
static void m_kind(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, data(b, sec(b, DOF_SECT_ACTDESC, 0)) + DOF_ACT_KIND, DTRACEACT_PANIC);
}
static void m_aggid(uint8_t *b, size_t *len)
{
	(void)len;
	size_t x = data(b, sec(b, DOF_SECT_SONDE_ACTEXT, 0));
	uint32_t aggs = r32(b, x + DOF_AX_WORDS * 4 + 28);    /* action 2: @n[...] = count() */
	w32(b, x + 4 * (size_t)aggs, 77);
}
static void m_nargs(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, data(b, sec(b, DOF_SECT_SONDE_ACTEXT, 0)) + 16, 1000);
}
static void m_nclauses(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, data(b, sec(b, DOF_SECT_SONDE_PROG, 0)) + 32, 7);
}
static void m_noprog(uint8_t *b, size_t *len)
{
	(void)len;
	w32(b, (size_t)sec(b, DOF_SECT_SONDE_PROG, 0) + DOF_SEC_TYPE, 0x5999);
}
static void m_links(uint8_t *b, size_t *len)
{
	(void)len;
	size_t d = data(b, sec(b, DOF_SECT_DIFOHDR, 0));
	w32(b, d + DOF_DIFOHDR_LINKS, r32(b, DOF_HDR_SECNUM) - 1);   /* the last: an ECBDESC */
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct { mutate_fn *fn; struct bad bad; } cases[] = {
		{ m_short, { "short", E_EINVAL, "shorter than the 64-byte header" } },
		{ m_magic, { "magic", E_EINVAL, "bad magic" } },
		{ m_encoding, { "encoding", E_EINVAL, "encoding" } },
		{ m_version, { "version", E_EINVAL, "DOF version 9" } },
		{ m_difvers, { "DIF version", E_EINVAL, "DIF version 1" } },
		{ m_iregs, { "registers", E_EINVAL, "16 integer" } },
		{ m_hdrsize, { "header size", E_EINVAL, "header size 60" } },
		{ m_filesz, { "file size", E_EINVAL, "file size" } },
		{ m_secnum, { "section count", E_EINVAL, "section headers" } },
		{ m_secoff, { "section offset", E_EINVAL, "section headers" } },
		{ m_align, { "alignment", E_EINVAL, "not a power of two" } },
		{ m_misaligned, { "misaligned", E_EINVAL, "is not 4-aligned" } },
		{ m_outside, { "outside", E_EINVAL, "lies outside" } },
		{ m_entsize, { "entsize", E_EINVAL, "entry size 16, not 32" } },
		{ m_partial, { "partial entry", E_EINVAL, "whole number" } },
		{ m_index, { "index", E_EINVAL, "section index 99999 out of range" } },
		{ m_type, { "type", E_EINVAL, "is STRTAB" } },
		{ m_stroff, { "string offset", E_EINVAL, "string offset" } },
		{ m_unterminated, { "unterminated", E_EINVAL, "not a string" } },
		{ m_dif, { "DIF", E_EDIF, "DOF: clause 1, predicate 0: DIF offset 0:" } },
		{ m_kind, { "kind", E_EINVAL, "disagrees" } },
		{ m_aggid, { "aggregation id", E_EINVAL, "aggregation 77" } },
		{ m_nargs, { "nargs", E_EINVAL, "out of range" } },
		{ m_nclauses, { "clauses", E_EINVAL, "says 7 clauses" } },
		{ m_noprog, { "no prog", E_EINVAL, "no SONDE_PROG" } },
		{ m_links, { "links", E_EINVAL, "link to section" } },
	};
	size_t len;
	uint8_t *good = write_dof(compile(progs[2]), &len), *b = malloc(len);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = len;
		memcpy(b, good, len);
		cases[i].fn(b, &n);
		refused(b, n, &cases[i].bad);
	}
	/* too small an arena: ENOMEM, not a crash */
	char err[128];
	dt_prog *q;
	assert_int_equal(dof_load(good, len, karena, 256, &q, err, sizeof(err)), E_ENOMEM);
	assert_non_null(strstr(err, "does not fit"));
	/* every truncation of a good file is refused */
	for (size_t n = 0; n < len; n++)
		assert_int_equal(load(good, n, &q, err, sizeof(err)), E_EINVAL);
	free(good);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
