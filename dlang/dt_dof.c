/*
 * dlang/dt_dof.c: a compiled program as DOF, the byte string the kernel
 * enables (dif/dof.h has the layout, docs/dof.md the prose).
 *
 * dt_dof_write lays the program out as DTrace does: a dof_hdr_t, the
 * section headers, then the sections.  Section 0 is the program's string
 * table (probe names, aggregation names, formats, options, variable names),
 * section 1 Sonde's PROG section that names the global sections; then the
 * aggregation, format, conversion, option and variable tables; then per
 * clause its DIF objects (DIF, INTTAB, STRTAB, VARTAB, then the DIFOHDR that
 * links them), its ACTEXT (the Sonde half of its actions), ACTDESC,
 * PROBEDESC and finally its ECBDESC, so that every section a header refers
 * to has a lower index and is known when the header is written.
 *
 * Two passes run the same walk: the first only counts sections and bytes,
 * the second, knowing where the data starts (after the section headers) and
 * where the string table goes (after everything else), stores the bytes.
 * Fields are stored one by one in the host's byte order, which the header
 * records (a big-endian sparc64 consumer writes big-endian DOF).  No memory
 * is allocated: the caller sizes the buffer with a first call.
 *
 * What DOF does not carry: a print() action's D type (ac_type) and provider
 * definitions (dtrace -h): both are the consumer's alone.
 *
 * Context: any; pure; reentrant.
 *
 * Tests: tests/unit/trace_dof_test.c (round trips), tests/d (every program
 * enabled through DOF).
 */
#include <string.h>

#include "dif/dof.h"
#include "dlang/dt_prog.h"

struct dw {
	unsigned char *buf;      /* NULL: counting pass */
	uint64_t off;            /* where the next byte goes */
	uint32_t nsec;           /* sections begun so far */
	uint64_t sec_start;      /* the open section's first byte */
	uint32_t sec_idx;
	uint64_t str_base;       /* the string table's file offset (second pass) */
	uint32_t str_len;        /* its bytes so far */
};

static void put(struct dw *w, const void *p, size_t n)
{
	if (w->buf != NULL)
		memcpy(w->buf + w->off, p, n);
	w->off += n;
}

static void put8(struct dw *w, uint8_t v) { put(w, &v, 1); }
static void put16(struct dw *w, uint16_t v) { put(w, &v, 2); }
static void put32(struct dw *w, uint32_t v) { put(w, &v, 4); }
static void put64(struct dw *w, uint64_t v) { put(w, &v, 8); }

static void pad_to(struct dw *w, uint64_t align)
{
	while (w->off % align != 0)
		put8(w, 0);
}

/* store32/64: a field at an absolute offset (headers). */
static void store32(struct dw *w, uint64_t at, uint32_t v)
{
	if (w->buf != NULL)
		memcpy(w->buf + at, &v, 4);
}

static void store64(struct dw *w, uint64_t at, uint64_t v)
{
	if (w->buf != NULL)
		memcpy(w->buf + at, &v, 8);
}

static void sec_header(struct dw *w, uint32_t idx, uint32_t type, uint32_t align, uint32_t entsize,
                       uint64_t off, uint64_t size)
{
	uint64_t h = DOF_HDR_SIZE + (uint64_t)idx * DOF_SEC_SIZE;

	store32(w, h + DOF_SEC_TYPE, type);
	store32(w, h + DOF_SEC_ALIGN, align);
	store32(w, h + DOF_SEC_FLAGS, DOF_SECF_LOAD);
	store32(w, h + DOF_SEC_ENTSIZE, entsize);
	store64(w, h + DOF_SEC_OFFSET, off);
	store64(w, h + DOF_SEC_DSIZE, size);
}

/* sec_begin / sec_end: one section's data, between them; returns its index. */
static uint32_t sec_begin(struct dw *w)
{
	pad_to(w, 8);
	w->sec_start = w->off;
	w->sec_idx = w->nsec++;
	return w->sec_idx;
}

static void sec_end(struct dw *w, uint32_t type, uint32_t align, uint32_t entsize)
{
	sec_header(w, w->sec_idx, type, align, entsize, w->sec_start, w->off - w->sec_start);
}

/* str: s's offset in the program's string table (no sharing: simple and still small). */
static uint32_t str(struct dw *w, const char *s)
{
	uint32_t off = w->str_len;
	size_t n = strlen(s != NULL ? s : "") + 1;

	if (w->buf != NULL)
		memcpy(w->buf + w->str_base + off, s != NULL ? s : "", n);
	w->str_len += (uint32_t)n;
	return off;
}

#define SEC_STRTAB 0u
#define SEC_PROG   1u

/* ---- DIF objects ---- */

/* difo_nsecs: the sections dw_difo writes for dp; its DIFOHDR is the last. */
static uint32_t difo_nsecs(const dif_difo_t *dp)
{
	return 2 + (dp->dd_nints != 0) + (dp->dd_strlen != 0) + (dp->dd_nvars != 0);
}

static void put_type(struct dw *w, dif_type_t t)
{
	put8(w, t.dt_kind);
	put8(w, 0);               /* dtdt_ckind: Sonde has no CTF type ids in DIF */
	put8(w, t.dt_flags);
	put8(w, 0);
	put32(w, t.dt_size);
}

static uint32_t dw_difo(struct dw *w, const dif_difo_t *dp)
{
	uint32_t links[4], n = 0;

	links[n++] = sec_begin(w);
	for (uint32_t i = 0; i < dp->dd_ninsns; i++)
		put32(w, dp->dd_insns[i]);
	sec_end(w, DOF_SECT_DIF, 4, 4);
	if (dp->dd_nints != 0) {
		links[n++] = sec_begin(w);
		for (uint32_t i = 0; i < dp->dd_nints; i++)
			put64(w, dp->dd_inttab[i]);
		sec_end(w, DOF_SECT_INTTAB, 8, 8);
	}
	if (dp->dd_strlen != 0) {
		links[n++] = sec_begin(w);
		put(w, dp->dd_strtab, dp->dd_strlen);
		sec_end(w, DOF_SECT_STRTAB, 1, 0);
	}
	if (dp->dd_nvars != 0) {
		links[n++] = sec_begin(w);
		for (uint32_t i = 0; i < dp->dd_nvars; i++) {
			const dif_var_t *v = &dp->dd_vartab[i];
			put32(w, v->dv_name);
			put32(w, v->dv_id);
			put8(w, v->dv_kind);
			put8(w, v->dv_scope);
			put16(w, v->dv_flags);
			put_type(w, v->dv_type);
		}
		sec_end(w, DOF_SECT_VARTAB, 4, DOF_DIFV_SIZE);
	}
	uint32_t idx = sec_begin(w);
	put_type(w, dp->dd_rtype);
	for (uint32_t i = 0; i < n; i++)
		put32(w, links[i]);
	sec_end(w, DOF_SECT_DIFOHDR, 4, 0);
	return idx;
}

/* ---- the program's tables ---- */

static uint32_t dw_aggs(struct dw *w, const dt_prog *p)
{
	uint32_t idx = sec_begin(w);

	for (uint32_t i = 0; i < p->dp_naggs; i++) {
		const dt_aggdesc *ag = &p->dp_aggs[i];
		put32(w, str(w, ag->ag_name));
		put32(w, ag->ag_id);
		put32(w, (uint32_t)ag->ag_func);
		put32(w, ag->ag_nkeys);
		put32(w, ag->ag_nparams);
		put32(w, 0);
		for (int k = 0; k < 4; k++)
			put64(w, (uint64_t)ag->ag_params[k]);
		for (int k = 0; k < 8; k++) {
			const dt_keytype *kt = &ag->ag_keys[k];
			put8(w, kt->kt_string);
			put8(w, kt->kt_size);
			put8(w, kt->kt_signed);
			put8(w, kt->kt_kind);
			put32(w, kt->kt_frames);
		}
	}
	sec_end(w, DOF_SECT_SONDE_AGGDESC, 8, DOF_AGG_SIZE);
	return idx;
}

static uint32_t dw_fmts(struct dw *w, const dt_prog *p)
{
	uint32_t idx = sec_begin(w), first = 0;

	for (uint32_t i = 0; i < p->dp_nformats; i++) {
		const dt_fmtdesc *fd = &p->dp_formats[i];
		put32(w, str(w, fd->fd_text));
		put32(w, fd->fd_nconvs);
		put32(w, first);
		put32(w, fd->fd_printa);
		first += fd->fd_nconvs;
	}
	sec_end(w, DOF_SECT_SONDE_FMTDESC, 4, DOF_FMT_SIZE);
	return idx;
}

static void put_chars(struct dw *w, const char *s, size_t n)
{
	char tmp[32] = { 0 };

	memcpy(tmp, s, n);
	tmp[n - 1] = 0;
	put(w, tmp, n);
}

static uint32_t dw_convs(struct dw *w, const dt_prog *p)
{
	uint32_t idx = sec_begin(w);

	for (uint32_t i = 0; i < p->dp_nformats; i++)
		for (uint32_t c = 0; c < p->dp_formats[i].fd_nconvs; c++) {
			const dt_conv *cv = &p->dp_formats[i].fd_convs[c];
			put32(w, (uint32_t)cv->cv_kind);
			put16(w, cv->cv_flags);
			put8(w, cv->cv_star_width);
			put8(w, cv->cv_star_prec);
			put32(w, cv->cv_textlen);
			put32(w, (uint32_t)cv->cv_width);
			put32(w, (uint32_t)cv->cv_prec);
			put32(w, (uint32_t)(unsigned char)cv->cv_ofmt);
			put_chars(w, cv->cv_spec, sizeof(cv->cv_spec));
			put_chars(w, cv->cv_name, sizeof(cv->cv_name));
			put64(w, 0);
		}
	sec_end(w, DOF_SECT_SONDE_CONV, 4, DOF_CONV_SIZE);
	return idx;
}

static uint32_t dw_opts(struct dw *w, const dt_prog *p)
{
	uint32_t idx = sec_begin(w);

	for (uint32_t i = 0; i < p->dp_noptions; i++) {
		const dt_option *op = &p->dp_options[i];
		put32(w, str(w, op->op_name));       /* Sonde's options are named, not numbered */
		put32(w, SEC_STRTAB);
		uint32_t v = str(w, op->op_value);
		put64(w, (uint64_t)op->op_line << 32 | v);
	}
	sec_end(w, DOF_SECT_OPTDESC, 8, DOF_OPT_SIZE);
	return idx;
}

static uint32_t dw_vars(struct dw *w, const dt_prog *p)
{
	uint32_t idx = sec_begin(w);

	for (uint32_t i = 0; i < p->dp_nvars; i++) {
		const dt_vardesc *v = &p->dp_vars[i];
		put32(w, str(w, v->vd_name));
		put32(w, v->vd_id);
		put8(w, v->vd_scope);
		put8(w, v->vd_kind);
		put8(w, v->vd_string);
		put8(w, 0);
		put32(w, v->vd_size);
		put32(w, v->vd_nkeys);
		put32(w, v->vd_nstrkeys);
	}
	sec_end(w, DOF_SECT_SONDE_VARDESC, 4, DOF_VAR_SIZE);
	return idx;
}

/* ---- clauses ---- */

/*
 * arg_next: the DIFOHDR index of the next argument dp, given the index the
 * walk of the clause's actions' DIF objects (each action's arguments in
 * order) has reached (*cursor), which it advances.  NONE for a stack key.
 */
static uint32_t arg_next(const dif_difo_t *dp, uint32_t *cursor)
{
	if (dp == NULL)
		return DOF_SECIDX_NONE;
	*cursor += difo_nsecs(dp);
	return *cursor - 1;
}

static uint32_t act_kind(const dt_prog *p, const dt_action *a)
{
	uint32_t func = a->ac_kind == DT_ACT_AGG && a->ac_naggs == 1 && a->ac_aggs[0] < p->dp_naggs ?
	                (uint32_t)p->dp_aggs[a->ac_aggs[0]].ag_func : 0;

	return dt_dof_actkind(a->ac_kind, func);
}

static uint32_t dw_actext(struct dw *w, const dt_clause *cl, uint32_t cursor)
{
	uint32_t idx = sec_begin(w), list = cl->cl_nacts * DOF_AX_WORDS;

	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		const dt_action *a = &cl->cl_acts[i];
		put32(w, (uint32_t)a->ac_kind);
		put32(w, a->ac_line);
		put32(w, (uint32_t)a->ac_fmt);
		put32(w, a->ac_size);
		put32(w, a->ac_nargs);
		put32(w, list);
		put32(w, a->ac_naggs);
		put32(w, list + a->ac_nargs);
		list += a->ac_nargs + a->ac_naggs;
	}
	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		const dt_action *a = &cl->cl_acts[i];
		for (uint32_t k = 0; k < a->ac_nargs; k++)
			put32(w, arg_next(a->ac_args[k], &cursor));
		for (uint32_t k = 0; k < a->ac_naggs; k++)
			put32(w, a->ac_aggs[k]);
	}
	sec_end(w, DOF_SECT_SONDE_ACTEXT, 4, 0);
	return idx;
}

static uint32_t dw_actdesc(struct dw *w, const dt_prog *p, const dt_clause *cl, uint32_t cursor)
{
	uint32_t idx = sec_begin(w);

	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		const dt_action *a = &cl->cl_acts[i];
		uint32_t first = DOF_SECIDX_NONE;
		for (uint32_t k = 0; k < a->ac_nargs; k++) {
			uint32_t h = arg_next(a->ac_args[k], &cursor);
			if (k == 0)
				first = h;
		}
		put32(w, first);
		put32(w, DOF_SECIDX_NONE);
		put32(w, act_kind(p, a));
		put32(w, a->ac_nargs);
		put64(w, a->ac_arg);
		put64(w, a->ac_line);
	}
	sec_end(w, DOF_SECT_ACTDESC, 8, DOF_ACT_SIZE);
	return idx;
}

static uint32_t dw_probes(struct dw *w, const dt_clause *cl)
{
	uint32_t idx = sec_begin(w);

	for (uint32_t i = 0; i < cl->cl_nprobes; i++) {
		const dt_probedesc *pd = &cl->cl_probes[i];
		put32(w, SEC_STRTAB);
		put32(w, str(w, pd->pd_prov));
		put32(w, str(w, pd->pd_mod));
		put32(w, str(w, pd->pd_func));
		put32(w, str(w, pd->pd_name));
		put32(w, pd->pd_line);
	}
	sec_end(w, DOF_SECT_PROBEDESC, 4, DOF_PD_SIZE);
	return idx;
}

static void dw_clause(struct dw *w, const dt_prog *p, const dt_clause *cl)
{
	uint32_t pred = DOF_SECIDX_NONE, acts = DOF_SECIDX_NONE, ext = DOF_SECIDX_NONE;

	if (cl->cl_pred != NULL)
		pred = dw_difo(w, cl->cl_pred);
	uint32_t cursor = w->nsec;              /* the actions' DIF objects start here */
	for (uint32_t i = 0; i < cl->cl_nacts; i++)
		for (uint32_t k = 0; k < cl->cl_acts[i].ac_nargs; k++)
			if (cl->cl_acts[i].ac_args[k] != NULL)
				dw_difo(w, cl->cl_acts[i].ac_args[k]);
	if (cl->cl_nacts != 0) {
		ext = dw_actext(w, cl, cursor);
		acts = dw_actdesc(w, p, cl, cursor);
	}
	uint32_t probes = dw_probes(w, cl);
	sec_begin(w);
	put32(w, probes);
	put32(w, pred);
	put32(w, acts);
	put32(w, 0);
	put64(w, (uint64_t)ext << 32 | cl->cl_line);
	sec_end(w, DOF_SECT_ECBDESC, 8, 0);
}

/* dw_prog: one pass over the whole program, from the first section's data on. */
static void dw_prog(struct dw *w, const dt_prog *p)
{
	uint32_t g[6];

	w->nsec = 2;                            /* STRTAB and PROG: their headers come last */
	g[0] = SEC_STRTAB;
	g[1] = dw_aggs(w, p);
	g[2] = dw_fmts(w, p);
	g[3] = dw_convs(w, p);
	g[4] = dw_opts(w, p);
	g[5] = dw_vars(w, p);
	for (uint32_t c = 0; c < p->dp_nclauses; c++)
		dw_clause(w, p, &p->dp_clauses[c]);
	/* PROG */
	w->sec_idx = SEC_PROG;
	pad_to(w, 8);
	w->sec_start = w->off;
	for (int i = 0; i < 6; i++)
		put32(w, g[i]);
	put32(w, p->dp_strsize);
	put32(w, p->dp_destructive ? 1 : 0);
	put32(w, p->dp_nclauses);
	put32(w, 0);
	sec_end(w, DOF_SECT_SONDE_PROG, 8, 0);
	/* the string table's place: the second pass writes it there */
	pad_to(w, 8);
}

static void dw_header(struct dw *w, uint64_t filesz)
{
	unsigned char id[DOF_ID_SIZE] = { DOF_MAG0, 'D', 'O', 'F', DOF_MODEL_LP64, 0, DOF_VERSION,
	                                  DOF_DIF_VERSION, DOF_DIF_IREGS, DOF_DIF_TREGS };
	uint16_t one = 1;

	id[DOF_ID_ENCODING] = *(unsigned char *)&one == 1 ? DOF_ENCODE_LSB : DOF_ENCODE_MSB;
	if (sizeof(void *) == 4)
		id[DOF_ID_MODEL] = DOF_MODEL_ILP32;
	memcpy(w->buf, id, sizeof(id));
	store32(w, DOF_HDR_FLAGS, 0);
	store32(w, DOF_HDR_HDRSIZE, DOF_HDR_SIZE);
	store32(w, DOF_HDR_SECSIZE, DOF_SEC_SIZE);
	store32(w, DOF_HDR_SECNUM, w->nsec);
	store64(w, DOF_HDR_SECOFF, DOF_HDR_SIZE);
	store64(w, DOF_HDR_LOADSZ, filesz);
	store64(w, DOF_HDR_FILESZ, filesz);
	store64(w, DOF_HDR_FILESZ + 8, 0);
}

size_t dt_dof_write(const dt_prog *p, void *buf, size_t len)
{
	struct dw w = { 0 };

	dw_prog(&w, p);                         /* count: sections, data bytes, strings */
	uint64_t data = DOF_HDR_SIZE + (uint64_t)w.nsec * DOF_SEC_SIZE;
	uint64_t strtab = data + w.off, strlen_ = w.str_len;
	uint64_t total = strtab + strlen_;
	if (buf == NULL || len < total)
		return (size_t)total;
	memset(buf, 0, (size_t)total);
	w = (struct dw){ .buf = buf, .off = data, .str_base = strtab };
	dw_prog(&w, p);
	sec_header(&w, SEC_STRTAB, DOF_SECT_STRTAB, 1, 0, strtab, strlen_);
	dw_header(&w, total);
	return (size_t)total;
}
