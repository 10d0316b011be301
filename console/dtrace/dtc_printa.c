/*
 * dtc_printa.c - printa(): aggregations printed on demand, alone or joined.
 *
 * printa(@a, @b, ...) and printa(fmt, @a, @b, ...) print one row per key
 * found in any of the aggregations; an aggregation without that key counts
 * as 0 (an empty histogram).  Rows are ordered by the value of the
 * aggregation at aggsortpos, then by the others' values in turn, then by
 * key (aggsortkey puts the key first; aggsortrev reverses).  Without a
 * format a row is the key members and each value (with aggpercpu, each
 * CPU's share under it), then a newline, after one leading newline; with a
 * format, plain conversions and * widths take the key members in order
 * and each %@ the next aggregation's value (the last one again if the
 * format has more %@ than aggregations), formatted as its conversion says
 * (count() unsigned, avg() computed unsigned, as libdtrace).  Histograms
 * print whole.
 *
 * Tests: tests/d/printa
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

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

	j->j_rows = kzalloc((d->dc_naggs + 1) * sizeof(*j->j_rows));
	j->j_order = kmalloc((d->dc_naggs + 1) * sizeof(*j->j_order));
	if (j->j_rows == NULL || j->j_order == NULL)
		return false;
	for (uint32_t k = 0; k < j->j_n; k++) {
		for (uint32_t i = 0; i < d->dc_naggs; i++) {
			const struct dtc_aggent *e = &d->dc_aggs[i];
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
	uint32_t first = (uint32_t)j->j_d->dc_sortpos < j->j_n ? (uint32_t)j->j_d->dc_sortpos : 0;
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

/* print_one: one aggregation's value in a row without a format (histograms whole). */
static void print_one(struct join *j, const struct join_row *r, uint32_t k, int64_t *zeros)
{
	struct dtc *d = j->j_d;
	uint32_t id = j->j_a->ac_aggs[k];
	struct dtc_aggent none = empty_of(d, id, r->jr_key, zeros);
	const struct dtc_aggent *e = r->jr_ent[k] ? r->jr_ent[k] : &none;

	if (is_hist(dtc_agg_desc(d, id)))
		dtc_agg_print_hist(d, e, false);
	else
		dtc_agg_print_value(d, e);
	dtc_agg_print_percpu(d, e);
}

/* agg_conv: a %@ conversion as the conversion it names (%@d as %d ...). */
static dt_conv agg_conv(const dt_conv *cv)
{
	dt_conv c = *cv;
	char n = cv->cv_name[strlen(cv->cv_name) - 1];

	c.cv_kind = n == 'a' || n == 'A' ? DT_CONV_SYM : n == 'Y' ? DT_CONV_Y : n == 'T' ? DT_CONV_T :
	            n == 'p' ? DT_CONV_PTR : cv->cv_ofmt == 'd' || cv->cv_ofmt == 'i' ||
	            cv->cv_ofmt == 'c' ? DT_CONV_SINT : DT_CONV_UINT;
	return c;
}

/*
 * agg_fmt_value: an aggregation's value as a %@ conversion takes it,
 * normalized: count() is unsigned; avg() is computed unsigned, as
 * libdtrace does (so a negative average prints huge).
 */
static struct dtc_value agg_fmt_value(struct dtc *d, const struct dtc_aggent *e)
{
	const dt_aggdesc *ag = dtc_agg_desc(d, e->ae_aggid);
	const int64_t *v = e->ae_vals;
	uint64_t n = (uint64_t)d->dc_agg_normal[e->ae_aggid];
	struct dtc_value val = { .dv_kind = DTC_VAL_INT, .dv_size = 8, .dv_signed = true };

	n = n > 1 ? n : 1;
	switch (ag->ag_func) {
	case DT_AGG_COUNT:
		val.dv_int = (int64_t)((uint64_t)v[0] / n);
		val.dv_signed = false;
		break;
	case DT_AGG_AVG:
		val.dv_int = v[0] ? (int64_t)((uint64_t)v[1] / n / (uint64_t)v[0]) : 0;
		break;
	case DT_AGG_STDDEV:
		val.dv_int = (int64_t)dtc_agg_sortval(d, e);
		break;
	default:
		val.dv_int = v[0] / (int64_t)n;
		break;
	}
	return val;
}

/* print_agg_conv: the value of the row's k-th aggregation through %@ conversion cv. */
static void print_agg_conv(struct join *j, const struct join_row *r, uint32_t k, const dt_conv *cv,
                           int width, int prec, int64_t *zeros)
{
	struct dtc *d = j->j_d;
	uint32_t id = j->j_a->ac_aggs[k];
	struct dtc_aggent none = empty_of(d, id, r->jr_key, zeros);
	const struct dtc_aggent *e = r->jr_ent[k] ? r->jr_ent[k] : &none;

	if (is_hist(dtc_agg_desc(d, id))) {
		dtc_agg_print_hist(d, e, false);
		return;
	}
	struct dtc_value v = agg_fmt_value(d, e);
	dt_conv c = agg_conv(cv);
	dtc_conv_print(&c, &v, width, prec);
}

/* key_value: key member k of e (at *off, which advances past it) as a conversion's value. */
static struct dtc_value key_value(struct dtc *d, const struct dtc_aggent *e, uint32_t k, uint32_t *off)
{
	const dt_keytype *kt = &dtc_agg_desc(d, e->ae_aggid)->ag_keys[k];
	uint32_t len = dtrace_agg_keysize(kt, d->dc_ov.dov_strsize, d->dc_ov.dov_stackframes);
	const uint8_t *p = e->ae_key + *off;
	struct dtc_value v = { .dv_kind = DTC_VAL_INT, .dv_size = kt->kt_size ? kt->kt_size : 8,
	                       .dv_signed = kt->kt_signed != 0 };

	*off += len;
	if (*off > e->ae_keylen)
		return (struct dtc_value){ .dv_kind = DTC_VAL_STR, .dv_str = "" };
	if (kt->kt_kind == DT_KEY_STACK || kt->kt_kind == DT_KEY_USTACK)
		return (struct dtc_value){ .dv_kind = DTC_VAL_STACK, .dv_pcs = (const uint64_t *)p,
		                           .dv_npcs = len / 8, .dv_user = kt->kt_kind == DT_KEY_USTACK };
	if (kt->kt_string)
		return (struct dtc_value){ .dv_kind = DTC_VAL_STR, .dv_str = (const char *)p };
	memcpy(&v.dv_int, p, 8);
	if (kt->kt_kind == DT_KEY_SYM || kt->kt_kind == DT_KEY_MOD || kt->kt_kind >= DT_KEY_USYM)
		v.dv_signed = false;
	return v;
}

/* print_key_conv: key member k through conversion cv (a mod() key always prints its module). */
static void print_key_conv(struct dtc *d, const struct dtc_aggent *e, uint32_t k, uint32_t *off,
                           const dt_conv *cv, int width, int prec)
{
	const dt_keytype *kt = &dtc_agg_desc(d, e->ae_aggid)->ag_keys[k];
	struct dtc_value v = key_value(d, e, k, off);
	char sym[160];

	if (kt->kt_kind >= DT_KEY_USYM && v.dv_kind == DTC_VAL_INT) {
		dt_conv c = *cv;
		uint64_t image;
		memcpy(&image, e->ae_key + *off - 8, 8);   /* key_value moved *off past [pc, image] */
		dtc_uaddr_format(kt->kt_kind, (uint64_t)v.dv_int, image, sym, sizeof(sym));
		c.cv_kind = DT_CONV_STR;
		v = (struct dtc_value){ .dv_kind = DTC_VAL_STR, .dv_str = sym };
		dtc_conv_print(&c, &v, width, prec);
		return;
	}
	if (kt->kt_kind == DT_KEY_MOD && v.dv_kind == DTC_VAL_INT) {
		dt_conv c = *cv;
		dtc_print_sym((uint64_t)v.dv_int, false, sym, sizeof(sym));
		if (strchr(sym, '`'))
			*strchr(sym, '`') = 0;              /* the module only */
		c.cv_kind = DT_CONV_STR;
		v = (struct dtc_value){ .dv_kind = DTC_VAL_STR, .dv_str = sym };
		dtc_conv_print(&c, &v, width, prec);
		return;
	}
	if (cv->cv_kind == DT_CONV_SYM && cv->cv_name[0] == 'A' && kt->kt_kind != DT_KEY_SYM &&
	    v.dv_kind == DTC_VAL_INT)
		dtc_uaddr_value(d, &v, sym, sizeof(sym));   /* an integer key through %A: a user address */
	dtc_conv_print(cv, &v, width, prec);
}

/* key_int: the next key member as a * width or precision takes it (an int). */
static int key_int(struct dtc *d, const struct dtc_aggent *e, uint32_t k, uint32_t *off)
{
	struct dtc_value v = key_value(d, e, k, off);

	if (v.dv_kind != DTC_VAL_INT)
		return 0;
	switch (v.dv_size) {
	case 1: return (int8_t)v.dv_int;
	case 2: return (int16_t)v.dv_int;
	default: return (int)v.dv_int;
	}
}

/*
 * print_row_fmt: one row through the format's text.  Plain conversions
 * and stars take the key members in order; each %@ the next aggregation
 * (the last one again once they run out).
 */
static void print_row_fmt(struct join *j, const struct join_row *r, const dt_fmtdesc *fd,
                          int64_t *zeros)
{
	struct dtc *d = j->j_d;
	const char *t = fd->fd_text;
	uint32_t key = 0, aggi = 0, off = 0, nkeys = dtc_agg_desc(d, r->jr_key->ae_aggid)->ag_nkeys;
	uint32_t ci = 0;
	const dt_conv *cv;

	while ((cv = dtc_fmt_next(fd, &t, &ci)) != NULL) {
		int width = cv->cv_width, prec = cv->cv_prec;
		if (cv->cv_kind == DT_CONV_PCT) {
			dtc_out("%%");
			continue;
		}
		if (cv->cv_star_width && key < nkeys)
			width = key_int(d, r->jr_key, key++, &off);
		if (cv->cv_star_prec && key < nkeys)
			prec = key_int(d, r->jr_key, key++, &off);
		if (cv->cv_kind == DT_CONV_AGG) {
			uint32_t k = aggi < j->j_n ? aggi++ : j->j_n - 1;
			print_agg_conv(j, r, k, cv, width, prec, zeros);
		} else if (key < nkeys) {
			print_key_conv(d, r->jr_key, key++, &off, cv, width, prec);
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
		d->dc_agg_printed[a->ac_aggs[i]] = true;
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
			print_row_fmt(&j, r, &d->dc_prog->dp_formats[a->ac_fmt], zeros);
			continue;
		}
		dtc_agg_print_keys(d, r->jr_key);
		for (uint32_t k = 0; k < j.j_n; k++)
			print_one(&j, r, k, zeros);
		dtc_out("\n");
	}
	kfree(j.j_rows);
	kfree(j.j_order);
	kfree(zeros);
}
