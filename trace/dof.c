/*
 * trace/dof.c: DOF in, the kernel's own program object out.
 *
 * The consumer hands the kernel a byte string in the DTrace Object Format
 * (dif/dof.h; docs/dof.md); dof_load trusts none of it.  In order:
 *   - the header: magic, data model, byte order (DOF records its encoding;
 *     the other order is refused by name, not byte-swapped), DOF and DIF
 *     versions, register counts, header and section header sizes, where the
 *     section headers are and that they fit, file and load sizes;
 *   - every section header: alignment a power of two, data aligned and
 *     inside the file, the entry size each known type must have, a size
 *     that is a whole number of entries;
 *   - then the program, from Sonde's PROG section: every section index
 *     names a section of the type it must (sec_get), every string offset
 *     lies in its table with its NUL there too (str_get), every count is
 *     bounded (by the section that holds the entries, and by the limits the
 *     framework has: DT_MAXARGS arguments, DT_MAXKEYS keys, ...), every
 *     index into another table is in range, and each action's DTrace half
 *     (ACTDESC) agrees with its Sonde half (ACTEXT);
 *   - every DIF object through dif_validate.
 * The first fault found ends the load with DTRACE_EINVAL (DTRACE_EDIF for a
 * DIF object) and a message that names it ("DOF section 7 (ACTDESC): ...").
 *
 * The program is built in an arena the caller lends: dt_prog and its
 * arrays, and a copy of each section a DIF object or a name uses, made once
 * per section however many times it is referenced (so a file that
 * references one big section many times cannot make the copy grow past
 * dof_arena_size).  Nothing of the caller's buffer survives the call.
 * Fields are read with memcpy: the buffer need not be aligned.
 *
 * Not carried by DOF, and so NULL in the kernel's program: a print()
 * action's D type and provider definitions (the consumer's only).  A
 * clause's destructive and speculative flags are worked out from its
 * actions rather than taken from the file.
 *
 * Context: thread context (dtrace_enable_dof) or the host (tests, fuzzer);
 * uses only the arena and the stack; no locks.
 *
 * Tests: tests/unit/trace_dof_test.c (round trips, each malformation),
 * tests/fuzz/dof_fuzz.c, tests/d (every program is enabled through here).
 */
#include <stdarg.h>

#include "dif/dif.h"
#include "dif/dof.h"
#include "kernel/klib.h"
#include "trace/dof.h"

enum {
#define DTRACE_ERR(NAME, n, msg) DOF_##NAME = -(n),
#include "trace/dtrace_errors.def"
#undef DTRACE_ERR
};

#define DOF_MAXSECS    65536u     /* sections in one file */
#define DOF_MAXNACTS   4096u      /* actions in one clause */
#define DOF_MAXNAGGS   64u        /* aggregations one action names (printa) */
#define DOF_MAXVARSIZE (1u << 20) /* a variable's value, bytes */

struct dl {
	const unsigned char *b;
	uint64_t len;                  /* dofh_filesz, checked against the buffer */
	uint32_t nsec;
	uint64_t secoff;
	unsigned char *arena;
	size_t asize, aused;
	void **copies;                 /* per section: its copy in the arena, or NULL */
	dif_difo_t **difos;            /* per DIFOHDR: its DIF object once loaded */
	uint32_t strtab;               /* the program's string table */
	const char *strs;              /* its copy */
	char *err;
	size_t errlen;
	int vproblems;
	uint32_t clause, action;       /* where the DIF object being loaded is used (messages) */
};

static int fail(struct dl *l, int rc, const char *fmt, ...) PRINTFLIKE(3, 4);
static int fail(struct dl *l, int rc, const char *fmt, ...)
{
	va_list ap;

	if (l->errlen > 0 && l->err[0] == 0) {
		int n = ksnprintf(l->err, l->errlen, "DOF: ");
		va_start(ap, fmt);
		kvsnprintf(l->err + n, l->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return rc;
}

static uint8_t rd8(const struct dl *l, uint64_t off) { return l->b[off]; }

static uint16_t rd16(const struct dl *l, uint64_t off)
{
	uint16_t v;
	memcpy(&v, l->b + off, 2);
	return v;
}

static uint32_t rd32(const struct dl *l, uint64_t off)
{
	uint32_t v;
	memcpy(&v, l->b + off, 4);
	return v;
}

static uint64_t rd64(const struct dl *l, uint64_t off)
{
	uint64_t v;
	memcpy(&v, l->b + off, 8);
	return v;
}

static void *aalloc(struct dl *l, uint64_t n)
{
	uint64_t at = ALIGN_UP(l->aused, 8);

	if (n > l->asize || at > l->asize - n)
		return NULL;
	l->aused = at + n;
	memset(l->arena + at, 0, n);
	return l->arena + at;
}

#define ANEW(l, p, n) ((p) = aalloc((l), (uint64_t)(n) * sizeof(*(p))))

static int nomem(struct dl *l)
{
	return fail(l, DOF_ENOMEM, "the program does not fit in %zu bytes", l->asize);
}

/* ---- sections ---- */

static uint64_t sh(const struct dl *l, uint32_t idx, unsigned field)
{
	uint64_t at = l->secoff + (uint64_t)idx * DOF_SEC_SIZE + field;
	return field >= DOF_SEC_OFFSET ? rd64(l, at) : rd32(l, at);
}

static const char *sect_name(uint32_t type)
{
	switch (type) {
	case DOF_SECT_ECBDESC: return "ECBDESC";
	case DOF_SECT_PROBEDESC: return "PROBEDESC";
	case DOF_SECT_ACTDESC: return "ACTDESC";
	case DOF_SECT_DIFOHDR: return "DIFOHDR";
	case DOF_SECT_DIF: return "DIF";
	case DOF_SECT_STRTAB: return "STRTAB";
	case DOF_SECT_VARTAB: return "VARTAB";
	case DOF_SECT_OPTDESC: return "OPTDESC";
	case DOF_SECT_INTTAB: return "INTTAB";
	case DOF_SECT_SONDE_PROG: return "SONDE_PROG";
	case DOF_SECT_SONDE_ACTEXT: return "SONDE_ACTEXT";
	case DOF_SECT_SONDE_AGGDESC: return "SONDE_AGGDESC";
	case DOF_SECT_SONDE_FMTDESC: return "SONDE_FMTDESC";
	case DOF_SECT_SONDE_CONV: return "SONDE_CONV";
	case DOF_SECT_SONDE_VARDESC: return "SONDE_VARDESC";
	default: return "unknown";
	}
}

/* entsize_of: the entry size a table section must declare (0: not a table; -1: any). */
static int64_t entsize_of(uint32_t type)
{
	switch (type) {
	case DOF_SECT_PROBEDESC: return DOF_PD_SIZE;
	case DOF_SECT_ACTDESC: return DOF_ACT_SIZE;
	case DOF_SECT_DIF: return 4;
	case DOF_SECT_INTTAB: return 8;
	case DOF_SECT_VARTAB: return DOF_DIFV_SIZE;
	case DOF_SECT_OPTDESC: return DOF_OPT_SIZE;
	case DOF_SECT_SONDE_AGGDESC: return DOF_AGG_SIZE;
	case DOF_SECT_SONDE_FMTDESC: return DOF_FMT_SIZE;
	case DOF_SECT_SONDE_CONV: return DOF_CONV_SIZE;
	case DOF_SECT_SONDE_VARDESC: return DOF_VAR_SIZE;
	case DOF_SECT_ECBDESC: case DOF_SECT_DIFOHDR: case DOF_SECT_STRTAB:
	case DOF_SECT_SONDE_PROG: case DOF_SECT_SONDE_ACTEXT: return 0;
	default: return -1;                     /* a section Sonde does not read */
	}
}

static int check_sections(struct dl *l)
{
	for (uint32_t i = 0; i < l->nsec; i++) {
		uint32_t type = (uint32_t)sh(l, i, DOF_SEC_TYPE), align = (uint32_t)sh(l, i, DOF_SEC_ALIGN);
		uint32_t ent = (uint32_t)sh(l, i, DOF_SEC_ENTSIZE);
		uint64_t off = sh(l, i, DOF_SEC_OFFSET), size = sh(l, i, DOF_SEC_DSIZE);
		int64_t want = entsize_of(type);
		if (align == 0 || (align & (align - 1)) != 0)
			return fail(l, DOF_EINVAL, "section %u (%s): alignment %u is not a power of two",
			            i, sect_name(type), align);
		if (off % align != 0)
			return fail(l, DOF_EINVAL, "section %u (%s): offset %llu is not %u-aligned", i,
			            sect_name(type), (unsigned long long)off, align);
		if (off > l->len || size > l->len - off)
			return fail(l, DOF_EINVAL, "section %u (%s): [%llu, +%llu) lies outside the "
			            "%llu-byte file", i, sect_name(type), (unsigned long long)off,
			            (unsigned long long)size, (unsigned long long)l->len);
		if (want >= 0 && ent != (uint64_t)want)
			return fail(l, DOF_EINVAL, "section %u (%s): entry size %u, not %lld", i,
			            sect_name(type), ent, (long long)want);
		if (ent != 0 && size % ent != 0)
			return fail(l, DOF_EINVAL, "section %u (%s): size %llu is not a whole number of "
			            "%u-byte entries", i, sect_name(type), (unsigned long long)size, ent);
	}
	return 0;
}

/* sec_get: section idx, which must have type `type` (what names the referrer, for the message). */
static int sec_get(struct dl *l, uint32_t idx, uint32_t type, const char *what, uint64_t *off,
                   uint64_t *size)
{
	if (idx >= l->nsec)
		return fail(l, DOF_EINVAL, "%s: section index %u out of range (%u sections)", what, idx,
		            l->nsec);
	uint32_t t = (uint32_t)sh(l, idx, DOF_SEC_TYPE);
	if (t != type)
		return fail(l, DOF_EINVAL, "%s: section %u is %s (type %u), not %s", what, idx,
		            sect_name(t), t, sect_name(type));
	*off = sh(l, idx, DOF_SEC_OFFSET);
	*size = sh(l, idx, DOF_SEC_DSIZE);
	return 0;
}

/* sec_copy: section idx's bytes in the arena, copied on first use. */
static const void *sec_copy(struct dl *l, uint32_t idx, uint64_t off, uint64_t size)
{
	if (l->copies[idx] == NULL) {
		void *p = aalloc(l, size != 0 ? size : 1);
		if (p != NULL)
			memcpy(p, l->b + off, size);
		l->copies[idx] = p;
	}
	return l->copies[idx];
}

static bool has_nul(const unsigned char *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i] == 0)
			return true;
	return false;
}

/* str_get: the program string at offset `at`, NUL-terminated inside the table. */
static int str_get(struct dl *l, uint32_t at, const char *what, const char **out)
{
	uint64_t off, size;

	if (sec_get(l, l->strtab, DOF_SECT_STRTAB, what, &off, &size) != 0)
		return DOF_EINVAL;
	if (at >= size || !has_nul(l->b + off + at, size - at))
		return fail(l, DOF_EINVAL, "%s: string offset %u is not a string of the %llu-byte "
		            "string table", what, at, (unsigned long long)size);
	*out = l->strs + at;
	return 0;
}

/* ---- DIF objects ---- */

static void vreport(void *arg, uint32_t pc, const char *why)
{
	struct dl *l = arg;

	if (l->vproblems++ == 0)
		fail(l, DOF_EDIF, "clause %u, %s %u: DIF offset %u: %s", l->clause + 1,
		     l->action ? "action" : "predicate", l->action, pc == DIF_PC_NONE ? 0 : pc * 4, why);
}

static dif_type_t rd_type(const struct dl *l, uint64_t at)
{
	return (dif_type_t){ .dt_kind = rd8(l, at), .dt_flags = rd8(l, at + 2),
	                     .dt_size = rd32(l, at + 4) };
}

static int difo_vars(struct dl *l, dif_difo_t *dp, uint32_t idx, uint64_t off, uint64_t size)
{
	dif_var_t *v;

	dp->dd_nvars = (uint32_t)(size / DOF_DIFV_SIZE);
	if (l->copies[idx] == NULL) {
		if (ANEW(l, v, dp->dd_nvars + 1) == NULL)
			return nomem(l);
		for (uint32_t i = 0; i < dp->dd_nvars; i++) {
			uint64_t at = off + (uint64_t)i * DOF_DIFV_SIZE;
			v[i] = (dif_var_t){ .dv_name = rd32(l, at), .dv_id = rd32(l, at + 4),
			                    .dv_kind = rd8(l, at + 8), .dv_scope = rd8(l, at + 9),
			                    .dv_flags = rd16(l, at + 10), .dv_type = rd_type(l, at + 12) };
		}
		l->copies[idx] = v;
	}
	dp->dd_vartab = l->copies[idx];
	return 0;
}

/* difo_link: one of a DIFOHDR's links: a DIF, INTTAB, STRTAB or VARTAB section, each once. */
static int difo_link(struct dl *l, dif_difo_t *dp, uint32_t hdr, uint32_t link, unsigned *seen)
{
	static const uint32_t types[] = { DOF_SECT_DIF, DOF_SECT_INTTAB, DOF_SECT_STRTAB, DOF_SECT_VARTAB };
	uint32_t t = link < l->nsec ? (uint32_t)sh(l, link, DOF_SEC_TYPE) : DOF_SECT_NONE;
	unsigned k = 0;
	uint64_t off, size;

	while (k < 4 && types[k] != t)
		k++;
	if (k == 4)
		return fail(l, DOF_EINVAL, "section %u (DIFOHDR): link to section %u, which is not "
		            "DIF, INTTAB, STRTAB or VARTAB", hdr, link);
	if (*seen & (1u << k))
		return fail(l, DOF_EINVAL, "section %u (DIFOHDR): two %s links", hdr, sect_name(t));
	*seen |= 1u << k;
	sec_get(l, link, t, "DIFOHDR link", &off, &size);
	if (size > UINT32_MAX)
		return fail(l, DOF_EINVAL, "section %u (%s): too big", link, sect_name(t));
	if (t == DOF_SECT_VARTAB)
		return difo_vars(l, dp, link, off, size);
	const void *copy = sec_copy(l, link, off, size);
	if (copy == NULL)
		return nomem(l);
	if (t == DOF_SECT_DIF) {
		dp->dd_insns = copy;
		dp->dd_ninsns = (uint32_t)(size / 4);
	} else if (t == DOF_SECT_INTTAB) {
		dp->dd_inttab = copy;
		dp->dd_nints = (uint32_t)(size / 8);
	} else {
		if (size != 0 && l->b[off + size - 1] != 0)
			return fail(l, DOF_EINVAL, "section %u (STRTAB): does not end with a NUL", link);
		dp->dd_strtab = copy;
		dp->dd_strlen = (uint32_t)size;
	}
	return 0;
}

/* difo_get: the DIF object of DIFOHDR section idx, loaded and validated once. */
static int difo_get(struct dl *l, uint32_t idx, const char *what, dif_difo_t **out)
{
	uint64_t off, size;
	unsigned seen = 0;
	int rc;

	if ((rc = sec_get(l, idx, DOF_SECT_DIFOHDR, what, &off, &size)) != 0)
		return rc;
	if (l->difos[idx] != NULL) {
		*out = l->difos[idx];
		return 0;
	}
	if (size < DOF_DIFOHDR_LINKS || (size - DOF_DIFOHDR_LINKS) % 4 != 0 ||
	    (size - DOF_DIFOHDR_LINKS) / 4 > 4)
		return fail(l, DOF_EINVAL, "section %u (DIFOHDR): size %llu is not a return type and "
		            "one to four links", idx, (unsigned long long)size);
	dif_difo_t *dp;
	if (ANEW(l, dp, 1) == NULL)
		return nomem(l);
	dp->dd_rtype = rd_type(l, off + DOF_DIFOHDR_RTYPE);
	for (uint64_t at = off + DOF_DIFOHDR_LINKS; at < off + size; at += 4)
		if ((rc = difo_link(l, dp, idx, rd32(l, at), &seen)) != 0)
			return rc;
	if (!(seen & 1))
		return fail(l, DOF_EINVAL, "section %u (DIFOHDR): no DIF section", idx);
	l->vproblems = 0;
	if (dif_validate(dp, DIF_VF_DESTRUCTIVE | DIF_VF_USER, vreport, l) != 0)
		return l->vproblems ? DOF_EDIF : fail(l, DOF_EDIF, "section %u: DIF object refused", idx);
	l->difos[idx] = dp;
	*out = dp;
	return 0;
}

/* ---- the program's tables ---- */

/* table: the entries of global table section idx (NONE: none). */
static int table(struct dl *l, uint32_t idx, uint32_t type, uint32_t entsize, uint64_t *off,
                 uint32_t *n)
{
	uint64_t size = 0;

	*n = 0;
	if (idx == DOF_SECIDX_NONE)
		return 0;
	int rc = sec_get(l, idx, type, "SONDE_PROG", off, &size);
	*n = (uint32_t)(size / entsize);
	return rc;
}

static int load_aggs(struct dl *l, dt_prog *p, uint32_t idx)
{
	uint64_t off;
	int rc = table(l, idx, DOF_SECT_SONDE_AGGDESC, DOF_AGG_SIZE, &off, &p->dp_naggs);

	if (rc != 0 || p->dp_naggs == 0)
		return rc;
	if (ANEW(l, p->dp_aggs, p->dp_naggs) == NULL)
		return nomem(l);
	for (uint32_t i = 0; i < p->dp_naggs; i++) {
		dt_aggdesc *ag = &p->dp_aggs[i];
		uint64_t at = off + (uint64_t)i * DOF_AGG_SIZE;
		if ((rc = str_get(l, rd32(l, at), "SONDE_AGGDESC name", &ag->ag_name)) != 0)
			return rc;
		ag->ag_id = rd32(l, at + 4);
		ag->ag_func = (dt_aggfunc)rd32(l, at + 8);
		ag->ag_nkeys = rd32(l, at + 12);
		ag->ag_nparams = rd32(l, at + 16);
		if (ag->ag_id != i || ag->ag_func < DT_AGG_COUNT || ag->ag_func > DT_AGG_LLQUANTIZE ||
		    ag->ag_nkeys > DT_MAXKEYS || ag->ag_nparams > 4)
			return fail(l, DOF_EINVAL, "aggregation %u: id %u, function %u, %u keys, %u "
			            "parameters: out of range", i, ag->ag_id, (unsigned)ag->ag_func,
			            ag->ag_nkeys, ag->ag_nparams);
		for (int k = 0; k < 4; k++)
			ag->ag_params[k] = (int64_t)rd64(l, at + 24 + 8 * (unsigned)k);
		for (uint32_t k = 0; k < 8; k++) {
			dt_keytype *kt = &ag->ag_keys[k];
			uint64_t ka = at + 56 + 8 * k;
			*kt = (dt_keytype){ rd8(l, ka), rd8(l, ka + 1), rd8(l, ka + 2), rd8(l, ka + 3),
			                    rd32(l, ka + 4) };
			if (kt->kt_string > 1 || kt->kt_signed > 1 || kt->kt_size > 8 ||
			    kt->kt_kind > DT_KEY_UMOD || kt->kt_frames > 100)
				return fail(l, DOF_EINVAL, "aggregation %u: key %u out of range", i, k);
		}
	}
	return 0;
}

static int load_convs(struct dl *l, uint32_t idx, dt_conv **convs, uint32_t *n)
{
	uint64_t off;
	int rc = table(l, idx, DOF_SECT_SONDE_CONV, DOF_CONV_SIZE, &off, n);

	if (rc != 0 || *n == 0)
		return rc;
	if (ANEW(l, *convs, *n) == NULL)
		return nomem(l);
	for (uint32_t i = 0; i < *n; i++) {
		dt_conv *cv = &(*convs)[i];
		uint64_t at = off + (uint64_t)i * DOF_CONV_SIZE;
		cv->cv_kind = (dt_convkind)rd32(l, at);
		cv->cv_flags = rd16(l, at + 4);
		cv->cv_star_width = rd8(l, at + 6);
		cv->cv_star_prec = rd8(l, at + 7);
		cv->cv_textlen = (uint16_t)rd32(l, at + 8);
		cv->cv_width = (int32_t)rd32(l, at + 12);
		cv->cv_prec = (int32_t)rd32(l, at + 16);
		cv->cv_ofmt = (char)rd8(l, at + 20);
		memcpy(cv->cv_spec, l->b + at + 24, sizeof(cv->cv_spec));
		memcpy(cv->cv_name, l->b + at + 48, sizeof(cv->cv_name));
		if (cv->cv_kind < DT_CONV_SINT || cv->cv_kind > DT_CONV_FLT ||
		    cv->cv_spec[sizeof(cv->cv_spec) - 1] != 0 || cv->cv_name[sizeof(cv->cv_name) - 1] != 0)
			return fail(l, DOF_EINVAL, "conversion %u: kind %u or its text is malformed", i,
			            (unsigned)cv->cv_kind);
	}
	return 0;
}

static int load_fmts(struct dl *l, dt_prog *p, uint32_t idx, uint32_t convidx)
{
	uint64_t off;
	dt_conv *convs = NULL;
	uint32_t nconvs;
	int rc = table(l, idx, DOF_SECT_SONDE_FMTDESC, DOF_FMT_SIZE, &off, &p->dp_nformats);

	if (rc != 0 || (rc = load_convs(l, convidx, &convs, &nconvs)) != 0 || p->dp_nformats == 0)
		return rc;
	if (ANEW(l, p->dp_formats, p->dp_nformats) == NULL)
		return nomem(l);
	for (uint32_t i = 0; i < p->dp_nformats; i++) {
		dt_fmtdesc *fd = &p->dp_formats[i];
		uint64_t at = off + (uint64_t)i * DOF_FMT_SIZE;
		uint32_t first = rd32(l, at + 8), printa = rd32(l, at + 12);
		if ((rc = str_get(l, rd32(l, at), "SONDE_FMTDESC text", &fd->fd_text)) != 0)
			return rc;
		fd->fd_nconvs = rd32(l, at + 4);
		if (first > nconvs || fd->fd_nconvs > nconvs - first || printa > 1)
			return fail(l, DOF_EINVAL, "format %u: conversions [%u, +%u) of %u, printa %u", i,
			            first, fd->fd_nconvs, nconvs, printa);
		fd->fd_convs = fd->fd_nconvs != 0 ? convs + first : NULL;
		fd->fd_printa = printa != 0;
	}
	return 0;
}

static int load_opts(struct dl *l, dt_prog *p, uint32_t idx)
{
	uint64_t off;
	int rc = table(l, idx, DOF_SECT_OPTDESC, DOF_OPT_SIZE, &off, &p->dp_noptions);

	if (rc != 0 || p->dp_noptions == 0)
		return rc;
	if (ANEW(l, p->dp_options, p->dp_noptions) == NULL)
		return nomem(l);
	for (uint32_t i = 0; i < p->dp_noptions; i++) {
		dt_option *op = &p->dp_options[i];
		uint64_t at = off + (uint64_t)i * DOF_OPT_SIZE, v = rd64(l, at + 8);
		if (rd32(l, at + 4) != l->strtab)
			return fail(l, DOF_EINVAL, "option %u: string table %u is not the program's", i,
			            rd32(l, at + 4));
		if ((rc = str_get(l, rd32(l, at), "OPTDESC name", &op->op_name)) != 0 ||
		    (rc = str_get(l, (uint32_t)v, "OPTDESC value", &op->op_value)) != 0)
			return rc;
		op->op_line = (uint32_t)(v >> 32);
	}
	return 0;
}

static int load_vars(struct dl *l, dt_prog *p, uint32_t idx)
{
	uint64_t off;
	int rc = table(l, idx, DOF_SECT_SONDE_VARDESC, DOF_VAR_SIZE, &off, &p->dp_nvars);

	if (rc != 0 || p->dp_nvars == 0)
		return rc;
	if (ANEW(l, p->dp_vars, p->dp_nvars) == NULL)
		return nomem(l);
	for (uint32_t i = 0; i < p->dp_nvars; i++) {
		dt_vardesc *v = &p->dp_vars[i];
		uint64_t at = off + (uint64_t)i * DOF_VAR_SIZE;
		if ((rc = str_get(l, rd32(l, at), "SONDE_VARDESC name", &v->vd_name)) != 0)
			return rc;
		*v = (dt_vardesc){ v->vd_name, rd32(l, at + 4), rd8(l, at + 8), rd8(l, at + 9),
		                   rd8(l, at + 10), rd32(l, at + 12), rd32(l, at + 16), rd32(l, at + 20) };
		if (v->vd_id < DIF_VAR_USER_BASE || v->vd_id > DIF_VAR_MAX ||
		    (v->vd_scope != DIF_SCOPE_GLOBAL && v->vd_scope != DIF_SCOPE_THREAD) ||
		    v->vd_kind > DIF_VKIND_ARRAY || v->vd_string > 1 || v->vd_size > DOF_MAXVARSIZE ||
		    v->vd_nkeys > DIF_TUPLE_MAX || v->vd_nstrkeys > v->vd_nkeys)
			return fail(l, DOF_EINVAL, "variable %u (%s): id %#x, scope %u, kind %u, size %u or "
			            "keys %u/%u out of range", i, v->vd_name, v->vd_id, v->vd_scope,
			            v->vd_kind, v->vd_size, v->vd_nstrkeys, v->vd_nkeys);
	}
	return 0;
}

/* ---- clauses ---- */

static int load_probes(struct dl *l, dt_clause *cl, uint32_t c, uint32_t idx)
{
	uint64_t off, size;
	int rc = sec_get(l, idx, DOF_SECT_PROBEDESC, "ECBDESC probes", &off, &size);

	if (rc != 0)
		return rc;
	cl->cl_nprobes = (uint32_t)(size / DOF_PD_SIZE);
	if (cl->cl_nprobes == 0)
		return fail(l, DOF_EINVAL, "clause %u: no probe description", c + 1);
	if (ANEW(l, cl->cl_probes, cl->cl_nprobes) == NULL)
		return nomem(l);
	for (uint32_t i = 0; i < cl->cl_nprobes; i++) {
		dt_probedesc *pd = &cl->cl_probes[i];
		uint64_t at = off + (uint64_t)i * DOF_PD_SIZE;
		char *dst[4] = { pd->pd_prov, pd->pd_mod, pd->pd_func, pd->pd_name };
		size_t cap[4] = { DT_PROVNAMELEN, DT_MODNAMELEN, DT_FUNCNAMELEN, DT_NAMELEN };
		if (rd32(l, at + DOF_PD_STRTAB) != l->strtab)
			return fail(l, DOF_EINVAL, "clause %u: probe description %u: string table %u is "
			            "not the program's", c + 1, i, rd32(l, at));
		for (int f = 0; f < 4; f++) {
			const char *s;
			if ((rc = str_get(l, rd32(l, at + 4 + 4 * (unsigned)f), "PROBEDESC", &s)) != 0)
				return rc;
			if (strlen(s) >= cap[f])
				return fail(l, DOF_EINVAL, "clause %u: probe description %u: field %d longer "
				            "than %zu bytes", c + 1, i, f, cap[f] - 1);
			memcpy(dst[f], s, strlen(s) + 1);
		}
		pd->pd_line = rd32(l, at + DOF_PD_ID);
	}
	return 0;
}

/* ax_list: words [at, at + n) of an ACTEXT section of nwords words. */
static bool ax_list(uint32_t at, uint32_t n, uint64_t nwords)
{
	return at <= nwords && n <= nwords - at;
}

static int load_action(struct dl *l, const dt_prog *p, dt_action *a, uint32_t c, uint32_t i,
                       uint64_t act, uint64_t ext, uint64_t nwords)
{
	uint64_t x = ext + (uint64_t)i * DOF_AX_WORDS * 4;
	uint32_t args = rd32(l, x + 20), aggs = rd32(l, x + 28);
	int rc;

	a->ac_kind = (dt_actkind)rd32(l, x);
	a->ac_line = rd32(l, x + 4);
	a->ac_fmt = (int32_t)rd32(l, x + 8);
	a->ac_size = rd32(l, x + 12);
	a->ac_nargs = rd32(l, x + 16);
	a->ac_naggs = rd32(l, x + 24);
	a->ac_arg = rd64(l, act + DOF_ACT_ARG);
	if (a->ac_kind < DT_ACT_EXPR || a->ac_kind > DT_ACT_UMOD || a->ac_fmt < -1 ||
	    a->ac_fmt >= (int32_t)p->dp_nformats || a->ac_nargs > DT_MAXARGS ||
	    a->ac_naggs > DOF_MAXNAGGS || !ax_list(args, a->ac_nargs, nwords) ||
	    !ax_list(aggs, a->ac_naggs, nwords))
		return fail(l, DOF_EINVAL, "clause %u, action %u: kind %u, format %d, %u arguments or "
		            "%u aggregations out of range", c + 1, i + 1, (unsigned)a->ac_kind, a->ac_fmt,
		            a->ac_nargs, a->ac_naggs);
	if (a->ac_naggs != 0 && ANEW(l, a->ac_aggs, a->ac_naggs) == NULL)
		return nomem(l);
	for (uint32_t k = 0; k < a->ac_naggs; k++)
		if ((a->ac_aggs[k] = rd32(l, ext + 4 * ((uint64_t)aggs + k))) >= p->dp_naggs)
			return fail(l, DOF_EINVAL, "clause %u, action %u: aggregation %u of %u", c + 1,
			            i + 1, a->ac_aggs[k], p->dp_naggs);
	uint32_t func = a->ac_kind == DT_ACT_AGG && a->ac_naggs == 1 ?
	                (uint32_t)p->dp_aggs[a->ac_aggs[0]].ag_func : 0;
	uint32_t first = a->ac_nargs != 0 ? rd32(l, ext + 4 * (uint64_t)args) : DOF_SECIDX_NONE;
	if (rd32(l, act + DOF_ACT_KIND) != dt_dof_actkind(a->ac_kind, func) ||
	    rd32(l, act + DOF_ACT_NTUPLE) != a->ac_nargs || rd32(l, act + DOF_ACT_DIFO) != first)
		return fail(l, DOF_EINVAL, "clause %u, action %u: ACTDESC (kind %#x, %u arguments) "
		            "disagrees with SONDE_ACTEXT (kind %u, %u arguments)", c + 1, i + 1,
		            rd32(l, act + DOF_ACT_KIND), rd32(l, act + DOF_ACT_NTUPLE),
		            (unsigned)a->ac_kind, a->ac_nargs);
	if (a->ac_nargs != 0 && ANEW(l, a->ac_args, a->ac_nargs) == NULL)
		return nomem(l);
	for (uint32_t k = 0; k < a->ac_nargs; k++) {
		uint32_t h = rd32(l, ext + 4 * ((uint64_t)args + k));
		if (h != DOF_SECIDX_NONE && (rc = difo_get(l, h, "action argument", &a->ac_args[k])) != 0)
			return rc;
	}
	return 0;
}

/*
 * act_destructive: the actions DTrace calls destructive (dlang/dt_func.c's
 * DT_FN_DESTR actions).  ftruncate() is not one: it acts on the consumer's
 * own output file.
 */
static bool act_destructive(dt_actkind k)
{
	return k == DT_ACT_PANIC || k == DT_ACT_BREAKPOINT || k == DT_ACT_CHILL || k == DT_ACT_RAISE ||
	       k == DT_ACT_STOP || k == DT_ACT_SYSTEM || k == DT_ACT_FREOPEN;
}

static int load_actions(struct dl *l, const dt_prog *p, dt_clause *cl, uint32_t c, uint32_t idx,
                        uint32_t extidx)
{
	uint64_t off, size, ext, extsize;
	int rc;

	if ((rc = sec_get(l, idx, DOF_SECT_ACTDESC, "ECBDESC actions", &off, &size)) != 0 ||
	    (rc = sec_get(l, extidx, DOF_SECT_SONDE_ACTEXT, "ECBDESC uarg", &ext, &extsize)) != 0)
		return rc;
	cl->cl_nacts = (uint32_t)(size / DOF_ACT_SIZE);
	if (cl->cl_nacts == 0 || cl->cl_nacts > DOF_MAXNACTS || extsize % 4 != 0 ||
	    extsize / 4 < (uint64_t)cl->cl_nacts * DOF_AX_WORDS)
		return fail(l, DOF_EINVAL, "clause %u: %u actions; SONDE_ACTEXT of %llu bytes", c + 1,
		            cl->cl_nacts, (unsigned long long)extsize);
	if (ANEW(l, cl->cl_acts, cl->cl_nacts) == NULL)
		return nomem(l);
	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		dt_action *a = &cl->cl_acts[i];
		l->action = i + 1;
		if ((rc = load_action(l, p, a, c, i, off + (uint64_t)i * DOF_ACT_SIZE, ext, extsize / 4)) != 0)
			return rc;
		cl->cl_speculative |= a->ac_kind == DT_ACT_SPECULATE;
		cl->cl_destructive |= act_destructive(a->ac_kind);
	}
	return 0;
}

static int load_clause(struct dl *l, dt_prog *p, uint32_t c, uint32_t idx)
{
	dt_clause *cl = &p->dp_clauses[c];
	uint64_t off = sh(l, idx, DOF_SEC_OFFSET), size = sh(l, idx, DOF_SEC_DSIZE);
	int rc;

	if (size < DOF_ECB_SIZE)
		return fail(l, DOF_EINVAL, "section %u (ECBDESC): %llu bytes, not %u", idx,
		            (unsigned long long)size, DOF_ECB_SIZE);
	uint32_t pred = rd32(l, off + DOF_ECB_PRED), acts = rd32(l, off + DOF_ECB_ACTIONS);
	uint64_t uarg = rd64(l, off + DOF_ECB_UARG);
	cl->cl_line = (uint32_t)uarg;
	l->clause = c;
	l->action = 0;
	if ((rc = load_probes(l, cl, c, rd32(l, off + DOF_ECB_PROBES))) != 0)
		return rc;
	if (pred != DOF_SECIDX_NONE && (rc = difo_get(l, pred, "ECBDESC predicate", &cl->cl_pred)) != 0)
		return rc;
	if (acts != DOF_SECIDX_NONE &&
	    (rc = load_actions(l, p, cl, c, acts, (uint32_t)(uarg >> 32))) != 0)
		return rc;
	p->dp_destructive |= cl->cl_destructive;
	return 0;
}

static int load_clauses(struct dl *l, dt_prog *p, uint32_t nclauses)
{
	uint32_t n = 0;
	int rc;

	for (uint32_t i = 0; i < l->nsec; i++)
		n += sh(l, i, DOF_SEC_TYPE) == DOF_SECT_ECBDESC;
	if (n != nclauses || n == 0)
		return fail(l, DOF_EINVAL, "%u ECBDESC sections; SONDE_PROG says %u clauses", n, nclauses);
	if (ANEW(l, p->dp_clauses, n) == NULL)
		return nomem(l);
	p->dp_nclauses = n;
	for (uint32_t i = 0, c = 0; i < l->nsec; i++)
		if (sh(l, i, DOF_SEC_TYPE) == DOF_SECT_ECBDESC && (rc = load_clause(l, p, c++, i)) != 0)
			return rc;
	return 0;
}

/* ---- the whole ---- */

static int check_header(struct dl *l, size_t buflen)
{
	static const unsigned char mag[4] = { DOF_MAG0, 'D', 'O', 'F' };
	uint16_t one = 1;
	unsigned char enc = *(unsigned char *)&one == 1 ? DOF_ENCODE_LSB : DOF_ENCODE_MSB;
	unsigned char model = sizeof(void *) == 8 ? DOF_MODEL_LP64 : DOF_MODEL_ILP32;

	if (buflen < DOF_HDR_SIZE)
		return fail(l, DOF_EINVAL, "%zu bytes is shorter than the %u-byte header", buflen,
		            DOF_HDR_SIZE);
	if (memcmp(l->b, mag, 4) != 0)
		return fail(l, DOF_EINVAL, "bad magic (not 0x7f 'D' 'O' 'F')");
	if (l->b[DOF_ID_ENCODING] != enc)
		return fail(l, DOF_EINVAL, "encoding %u: the file is %s, this kernel %s",
		            l->b[DOF_ID_ENCODING],
		            l->b[DOF_ID_ENCODING] == DOF_ENCODE_MSB ? "big-endian" :
		            l->b[DOF_ID_ENCODING] == DOF_ENCODE_LSB ? "little-endian" : "of no known order",
		            enc == DOF_ENCODE_MSB ? "big-endian" : "little-endian");
	if (l->b[DOF_ID_MODEL] != model)
		return fail(l, DOF_EINVAL, "data model %u, not this kernel's %u", l->b[DOF_ID_MODEL], model);
	if (l->b[DOF_ID_VERSION] != DOF_VERSION || l->b[DOF_ID_DIFVERS] != DOF_DIF_VERSION)
		return fail(l, DOF_EINVAL, "DOF version %u, DIF version %u (this kernel reads %u and %u)",
		            l->b[DOF_ID_VERSION], l->b[DOF_ID_DIFVERS], DOF_VERSION, DOF_DIF_VERSION);
	if (l->b[DOF_ID_DIFIREG] != DOF_DIF_IREGS || l->b[DOF_ID_DIFTREG] != DOF_DIF_TREGS)
		return fail(l, DOF_EINVAL, "%u integer and %u tuple registers, not %u and %u",
		            l->b[DOF_ID_DIFIREG], l->b[DOF_ID_DIFTREG], DOF_DIF_IREGS, DOF_DIF_TREGS);
	if (rd32(l, DOF_HDR_HDRSIZE) != DOF_HDR_SIZE || rd32(l, DOF_HDR_SECSIZE) != DOF_SEC_SIZE)
		return fail(l, DOF_EINVAL, "header size %u, section header size %u (not %u, %u)",
		            rd32(l, DOF_HDR_HDRSIZE), rd32(l, DOF_HDR_SECSIZE), DOF_HDR_SIZE, DOF_SEC_SIZE);
	uint64_t filesz = rd64(l, DOF_HDR_FILESZ), loadsz = rd64(l, DOF_HDR_LOADSZ);
	if (filesz > buflen || filesz < DOF_HDR_SIZE || loadsz > filesz)
		return fail(l, DOF_EINVAL, "file size %llu, load size %llu, in %zu bytes",
		            (unsigned long long)filesz, (unsigned long long)loadsz, buflen);
	l->len = filesz;
	l->nsec = rd32(l, DOF_HDR_SECNUM);
	l->secoff = rd64(l, DOF_HDR_SECOFF);
	if (l->nsec == 0 || l->nsec > DOF_MAXSECS || l->secoff % 8 != 0 || l->secoff > filesz ||
	    (uint64_t)l->nsec * DOF_SEC_SIZE > filesz - l->secoff)
		return fail(l, DOF_EINVAL, "%u section headers at %llu do not fit in the %llu-byte file",
		            l->nsec, (unsigned long long)l->secoff, (unsigned long long)filesz);
	return 0;
}

static int load_prog(struct dl *l, dt_prog *p)
{
	uint32_t prog = DOF_SECIDX_NONE, g[6];
	uint64_t off, size;
	int rc;

	for (uint32_t i = 0; i < l->nsec; i++)
		if (sh(l, i, DOF_SEC_TYPE) == DOF_SECT_SONDE_PROG) {
			if (prog != DOF_SECIDX_NONE)
				return fail(l, DOF_EINVAL, "two SONDE_PROG sections (%u, %u)", prog, i);
			prog = i;
		}
	if (prog == DOF_SECIDX_NONE)
		return fail(l, DOF_EINVAL, "no SONDE_PROG section");
	sec_get(l, prog, DOF_SECT_SONDE_PROG, "", &off, &size);
	if (size < DOF_PROG_SIZE)
		return fail(l, DOF_EINVAL, "section %u (SONDE_PROG): %llu bytes, not %u", prog,
		            (unsigned long long)size, DOF_PROG_SIZE);
	for (int i = 0; i < 6; i++)
		g[i] = rd32(l, off + 4 * (unsigned)i);
	l->strtab = g[0];
	if ((rc = sec_get(l, l->strtab, DOF_SECT_STRTAB, "SONDE_PROG strtab", &off, &size)) != 0)
		return rc;
	if ((l->strs = sec_copy(l, l->strtab, off, size)) == NULL)
		return nomem(l);
	sec_get(l, prog, DOF_SECT_SONDE_PROG, "", &off, &size);
	p->dp_strsize = rd32(l, off + 24);
	p->dp_destructive = (rd32(l, off + 28) & 1) != 0;
	uint32_t nclauses = rd32(l, off + 32);
	if (p->dp_strsize < 2 || p->dp_strsize > 8192)
		return fail(l, DOF_EINVAL, "strsize %u out of range", p->dp_strsize);
	if ((rc = load_aggs(l, p, g[1])) != 0 || (rc = load_fmts(l, p, g[2], g[3])) != 0 ||
	    (rc = load_opts(l, p, g[4])) != 0 || (rc = load_vars(l, p, g[5])) != 0)
		return rc;
	return load_clauses(l, p, nclauses);
}

size_t dof_arena_size(size_t len)
{
	return 16 * len + 4096;
}

int dof_load(const void *buf, size_t len, void *arena, size_t arenasz, dt_prog **out,
             char *err, size_t errlen)
{
	struct dl l = { .b = buf, .arena = arena, .asize = arenasz, .err = err, .errlen = errlen };
	dt_prog *p;
	int rc;

	if (errlen > 0)
		err[0] = 0;
	*out = NULL;
	if (buf == NULL)
		return fail(&l, DOF_EINVAL, "no DOF given");
	if ((rc = check_header(&l, len)) != 0 || (rc = check_sections(&l)) != 0)
		return rc;
	if (ANEW(&l, p, 1) == NULL || ANEW(&l, l.copies, l.nsec) == NULL ||
	    ANEW(&l, l.difos, l.nsec) == NULL)
		return nomem(&l);
	if ((rc = load_prog(&l, p)) != 0)
		return rc;
	p->dp_arena_used = l.aused;
	*out = p;
	return 0;
}
