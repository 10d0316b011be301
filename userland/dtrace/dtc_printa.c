/*
 * dtc_printa.c - printa(): aggregations printed on demand, alone or joined.
 *
 * printa(@a, @b, ...) and printa(fmt, @a, @b, ...) print one row per key
 * found in any of the aggregations; an aggregation without that key counts
 * as 0 (an empty histogram).  Rows are ordered by the value of the
 * aggregation at aggsortpos, then by the others' values in turn, then by
 * key (aggsortkey puts the key first; aggsortrev reverses).  Without a
 * format a row is the key members and each value, after one leading
 * newline; with a format, plain conversions take the key members in order
 * and each %@ the next aggregation's value (the last one again if the
 * format has more %@ than aggregations).  Histograms print whole.
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "userland/dtrace/dtc.h"

#define MAXJOIN 16

struct join_row {
	const struct dtc_aggent *jr_ent[MAXJOIN];   /* per aggregation, NULL if missing */
	const struct dtc_aggent *jr_key;            /* any present entry: the key */
};

struct join {
	struct dtc *j_d;
	const dt_action *j_a;
	uint32_t j_n;                                /* aggregations */
	struct join_row *j_rows;
	void **j_order;                              /* the rows (struct join_row *), sorted */
	uint32_t j_nrows;
};

static bool is_hist(const dt_aggdesc *ag)
{
	return ag->ag_func == DT_AGG_QUANTIZE || ag->ag_func == DT_AGG_LQUANTIZE ||
	       ag->ag_func == DT_AGG_LLQUANTIZE;
}

/* key_seen: has an aggregation listed before the k-th e's key (so a row for it)? */
static bool key_seen(struct join *j, uint32_t k, const struct dtc_aggent *e)
{
	for (uint32_t m = 0; m < k; m++)
		if (dtc_agg_find(j->j_d, j->j_a->ac_aggs[m], e->ae_key, e->ae_keylen) != NULL)
			return true;
	return false;
}

/* join_build: one row per distinct key over the listed aggregations, in order of first sight. */
static bool join_build(struct join *j)
{
	struct dtc *d = j->j_d;
	const uint32_t *ids = j->j_a->ac_aggs;

	j->j_rows = kzalloc((d->naggs + 1) * sizeof(*j->j_rows));
	j->j_order = kmalloc((d->naggs + 1) * sizeof(*j->j_order));
	if (j->j_rows == NULL || j->j_order == NULL)
		return false;
	for (uint32_t k = 0; k < j->j_n; k++) {
		for (uint32_t i = 0; i < d->naggs; i++) {
			const struct dtc_aggent *e = &d->aggs[i];
			if (e->ae_aggid != ids[k] || key_seen(j, k, e))
				continue;
			struct join_row *r = &j->j_rows[j->j_nrows];
			r->jr_key = e;
			for (uint32_t m = k; m < j->j_n; m++)
				r->jr_ent[m] = dtc_agg_find(d, ids[m], e->ae_key, e->ae_keylen);
			j->j_order[j->j_nrows++] = r;
		}
	}
	return true;
}

/* row_values_cmp: the value at aggsortpos first, then the others' in their order. */
static int row_values_cmp(struct join *j, const struct join_row *a, const struct join_row *b)
{
	uint32_t first = (uint32_t)j->j_d->sortpos < j->j_n ? (uint32_t)j->j_d->sortpos : 0;
	int c = 0;

	for (uint32_t n = 0; n < j->j_n && c == 0; n++) {
		uint32_t k = n == 0 ? first : (n <= first ? n - 1 : n);
		c = dtc_agg_valcmp(j->j_d, a->jr_ent[k], b->jr_ent[k]);
	}
	return c;
}

static int row_cmp(void *arg, const void *x, const void *y)
{
	const struct join_row *a = x, *b = y;

	return dtc_agg_order(((struct join *)arg)->j_d, a->jr_key, b->jr_key,
	                     row_values_cmp(arg, a, b));
}

/* empty_of: a zero entry of aggregation id (for a key it lacks). */
static struct dtc_aggent empty_of(struct dtc *d, uint32_t id, const struct dtc_aggent *key,
                                  int64_t *zeros)
{
	return (struct dtc_aggent){ id, key->ae_keylen, key->ae_key, zeros,
	                            dtrace_agg_nvals(dtc_agg_desc(d, id)) };
}

/* print_agg_value: one aggregation's value in a row, by conversion spec or default. */
static void print_one(struct join *j, const struct join_row *r, uint32_t k, const char *spec,
                      int64_t *zeros)
{
	struct dtc *d = j->j_d;
	uint32_t id = j->j_a->ac_aggs[k];
	struct dtc_aggent none = empty_of(d, id, r->jr_key, zeros);
	const struct dtc_aggent *e = r->jr_ent[k] ? r->jr_ent[k] : &none;
	const dt_aggdesc *ag = dtc_agg_desc(d, id);

	if (is_hist(ag)) {
		dtc_agg_print_hist(d, e, spec == NULL);
		return;
	}
	if (spec == NULL) {
		dtc_agg_print_value(d, e);
		return;
	}
	int64_t v = (int64_t)dtc_agg_sortval(d, e);
	if (ag->ag_func != DT_AGG_STDDEV)
		v = dtc_agg_normal(d, id, v);
	dtc_out(spec, (long long)v);
}

/* spec_plain: the conversion spec without '@' and length letters, with len + conv at the end. */
static char spec_plain(const char *cv, const char *len, char conv_override, char *out, size_t size)
{
	size_t n = 0, l = strlen(cv);
	char conv = l ? cv[l - 1] : 'd';

	for (size_t i = 0; i + 1 < l && n + 6 < size; i++)
		if (cv[i] != '@' && cv[i] != 'l' && cv[i] != 'h' && cv[i] != '\'')
			out[n++] = cv[i];
	while (*len && n + 2 < size)
		out[n++] = *len++;
	out[n++] = conv_override ? conv_override : conv;
	out[n] = 0;
	return conv;
}

static void print_key_conv(struct dtc *d, const struct dtc_aggent *e, uint32_t k, uint32_t *off,
                           const dt_conv *cv)
{
	const dt_keytype *kt = &dtc_agg_desc(d, e->ae_aggid)->ag_keys[k];
	uint32_t len = dtrace_agg_keysize(kt, d->ov.dov_strsize, d->ov.dov_stackframes);
	char spec[48], sym[160];
	int64_t v;
	char conv = spec_plain(cv->cv_spec, "", 0, spec, sizeof(spec));

	memcpy(&v, e->ae_key + *off, 8);
	if (kt->kt_kind == DT_KEY_STACK || kt->kt_kind == DT_KEY_USTACK) {
		dtc_print_stack((const uint64_t *)(e->ae_key + *off), len / 8);
	} else if (kt->kt_string) {
		spec_plain(cv->cv_spec, "", 's', spec, sizeof(spec));
		dtc_out(spec, (const char *)e->ae_key + *off);
	} else if (conv == 'a' || conv == 'A' || kt->kt_kind == DT_KEY_SYM || kt->kt_kind == DT_KEY_MOD) {
		dtc_print_sym((uint64_t)v, conv == 'a', sym, sizeof(sym));
		if (kt->kt_kind == DT_KEY_MOD && strchr(sym, '`'))
			*strchr(sym, '`') = 0;              /* the module only */
		spec_plain(cv->cv_spec, "", 's', spec, sizeof(spec));
		dtc_out(spec, sym);
	} else {
		spec_plain(cv->cv_spec, "ll", conv == 'c' || conv == 'p' ? 'x' : 0, spec, sizeof(spec));
		dtc_out(spec, (long long)v);
	}
	*off += len;
}

/* print_row_fmt: one row through the format's text. */
static void print_row_fmt(struct join *j, const struct join_row *r, const dt_fmtdesc *fd,
                          int64_t *zeros)
{
	struct dtc *d = j->j_d;
	const char *t = fd->fd_text;
	uint32_t key = 0, aggi = 0, off = 0, nkeys = dtc_agg_desc(d, r->jr_key->ae_aggid)->ag_nkeys;
	char spec[48];
	uint32_t ci = 0;
	const dt_conv *cv;

	while ((cv = dtc_fmt_next(fd, &t, &ci)) != NULL) {
		if (cv->cv_kind == DT_CONV_PCT) {
			dtc_out("%%");
		} else if (cv->cv_kind == DT_CONV_AGG) {
			uint32_t k = aggi < j->j_n ? aggi++ : j->j_n - 1;
			spec_plain(cv->cv_spec, "ll", 0, spec, sizeof(spec));
			print_one(j, r, k, spec, zeros);
		} else if (key < nkeys) {
			print_key_conv(d, r->jr_key, key++, &off, cv);
		}
	}
}

void dtc_printa(struct dtc *d, const dt_action *a)
{
	struct join j = { d, a, MIN(a->ac_naggs, (uint32_t)MAXJOIN), NULL, NULL, 0 };

	if (a->ac_naggs == 0)
		return;
	dtc_agg_snapshot(d);
	for (uint32_t i = 0; i < a->ac_naggs; i++)
		d->agg_printed[a->ac_aggs[i]] = true;
	uint32_t maxvals = 1;
	for (uint32_t i = 0; i < j.j_n; i++)
		maxvals = MAX(maxvals, dtrace_agg_nvals(dtc_agg_desc(d, a->ac_aggs[i])));
	int64_t *zeros = kzalloc(maxvals * sizeof(int64_t));  /* a missing entry's values */
	if (zeros == NULL || !join_build(&j)) {
		kfree(j.j_rows);
		kfree(j.j_order);
		kfree(zeros);
		return;
	}
	dtc_sort(j.j_order, j.j_nrows, row_cmp, &j);
	if (a->ac_fmt < 0)
		dtc_out("\n");
	for (uint32_t i = 0; i < j.j_nrows; i++) {
		const struct join_row *r = j.j_order[i];
		if (a->ac_fmt >= 0) {
			print_row_fmt(&j, r, &d->prog->dp_formats[a->ac_fmt], zeros);
			continue;
		}
		dtc_agg_print_keys(d, r->jr_key);
		for (uint32_t k = 0; k < j.j_n; k++)
			print_one(&j, r, k, NULL, zeros);
		if (!is_hist(dtc_agg_desc(d, a->ac_aggs[j.j_n - 1])))
			dtc_out("\n");
	}
	kfree(j.j_rows);
	kfree(j.j_order);
	kfree(zeros);
}
