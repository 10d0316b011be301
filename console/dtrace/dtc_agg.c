/*
 * dtc_agg.c - aggregations on the consumer side.
 *
 * dtc_agg_snapshot() walks every CPU's aggregation buffer and merges entries
 * with equal (aggregation, key): counts, sums and buckets add; min and max
 * keep the extreme.  As in DTrace, keys are normalized first: a func(),
 * sym() or mod() member (a PC in the kernel's buffer) becomes the start of
 * its symbol or module, so one function is one row however many of its
 * addresses fired; trunc() then removes every raw entry merged into a row.  Printing sorts one aggregation's entries by value, ties
 * broken by key (integers compared unsigned, strings bytewise) unless the
 * aggsort options say otherwise, and prints each entry as DTrace does: the
 * key members, then the value, or a histogram for quantize and lquantize.
 *
 * Tests: tests/d/aggs, tests/d/agg-exit, tests/d/output
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

/* ---- merging ---- */

const dt_aggdesc *dtc_agg_desc(struct dtc *d, uint32_t aggid)
{
	return &d->dc_prog->dp_aggs[aggid];
}

static uint32_t key_hash(uint32_t aggid, const void *key, uint32_t keylen)
{
	uint32_t h = 2166136261u ^ aggid;

	for (uint32_t i = 0; i < keylen; i++)
		h = (h ^ ((const uint8_t *)key)[i]) * 16777619u;
	return h;
}

/* hash_slot: the slot of (aggid, key) in the index: its entry's, or the empty one to use. */
static uint32_t *hash_slot(struct dtc *d, uint32_t aggid, const void *key, uint32_t keylen)
{
	uint32_t mask = d->dc_agghash_size - 1;

	for (uint32_t i = key_hash(aggid, key, keylen) & mask;; i = (i + 1) & mask) {
		uint32_t *slot = &d->dc_agghash[i];
		if (*slot == 0)
			return slot;
		struct dtc_aggent *e = &d->dc_aggs[*slot - 1];
		if (e->ae_aggid == aggid && e->ae_keylen == keylen && memcmp(e->ae_key, key, keylen) == 0)
			return slot;
	}
}

/* hash_grow: an index with room for twice as many entries (rebuilt from aggs). */
static bool hash_grow(struct dtc *d)
{
	uint32_t size = d->dc_agghash_size ? d->dc_agghash_size * 2 : 256;
	uint32_t *h = kzalloc(size * sizeof(*h));

	if (h == NULL)
		return false;
	kfree(d->dc_agghash);
	d->dc_agghash = h;
	d->dc_agghash_size = size;
	for (uint32_t i = 0; i < d->dc_naggs; i++) {
		struct dtc_aggent *e = &d->dc_aggs[i];
		*hash_slot(d, e->ae_aggid, e->ae_key, e->ae_keylen) = i + 1;
	}
	return true;
}

struct dtc_aggent *dtc_agg_find(struct dtc *d, uint32_t aggid, const void *key, uint32_t keylen)
{
	if (d->dc_agghash_size == 0)
		return NULL;
	uint32_t *slot = hash_slot(d, aggid, key, keylen);
	return *slot ? &d->dc_aggs[*slot - 1] : NULL;
}

/* key_has_syms: does aggregation ag have a func()/sym()/mod() key? */
static bool key_has_syms(const dt_aggdesc *ag)
{
	for (uint32_t k = 0; k < ag->ag_nkeys; k++)
		if (ag->ag_keys[k].kt_kind == DT_KEY_SYM || ag->ag_keys[k].kt_kind == DT_KEY_MOD ||
		    ag->ag_keys[k].kt_kind == DT_KEY_USYM || ag->ag_keys[k].kt_kind == DT_KEY_UMOD)
			return true;
	return false;
}

/*
 * key_normalize: the key as DTrace merges it: each func()/sym() member
 * becomes the start of its symbol and each mod() member the start of its
 * module, so that one function (or module) is one row however many of its
 * addresses were recorded.  Normalizes the copy at key in place.
 */
static void key_normalize(struct dtc *d, const dt_aggdesc *ag, uint8_t *key, uint32_t keylen)
{
	uint32_t off = 0;

	for (uint32_t k = 0; k < ag->ag_nkeys && off < keylen; k++) {
		const dt_keytype *kt = &ag->ag_keys[k];
		if ((kt->kt_kind == DT_KEY_SYM || kt->kt_kind == DT_KEY_MOD) && off + 8 <= keylen) {
			uint64_t pc;
			memcpy(&pc, key + off, 8);
			pc = dtc_sym_normal(pc, kt->kt_kind == DT_KEY_MOD);
			memcpy(key + off, &pc, 8);
		}
		if (kt->kt_kind >= DT_KEY_USYM && off + 16 <= keylen) {
			uint64_t pc, image;
			memcpy(&pc, key + off, 8);
			memcpy(&image, key + off + 8, 8);
			pc = dtc_uaddr_normal(kt->kt_kind, pc, image);
			memcpy(key + off, &pc, 8);
		}
		off += dtrace_agg_keysize(kt, d->dc_ov.dov_strsize, d->dc_ov.dov_stackframes);
	}
}

/* merge_entry: add one CPU's (aggid, key) entry into the merged snapshot. */
static void merge_entry(struct dtc *d, uint32_t aggid, const void *key, uint32_t keylen,
                        const int64_t *vals, uint32_t nvals)
{
	struct dtc_aggent *e = dtc_agg_find(d, aggid, key, keylen);

	if (e != NULL) {
		dtrace_agg_merge(dtc_agg_desc(d, aggid), e->ae_vals, vals, MIN(nvals, e->ae_nvals));
		return;
	}
	if ((d->dc_naggs + 1) * 2 > d->dc_agghash_size && !hash_grow(d))
		return;
	if (d->dc_naggs == d->dc_aggcap) {
		uint32_t cap = d->dc_aggcap ? d->dc_aggcap * 2 : 64;
		struct dtc_aggent *n = kmalloc(cap * sizeof(*n));
		if (n == NULL)
			return;
		memcpy(n, d->dc_aggs, d->dc_naggs * sizeof(*n));
		kfree(d->dc_aggs);
		d->dc_aggs = n;
		d->dc_aggcap = cap;
	}
	uint8_t *mem = kmalloc(keylen + nvals * sizeof(int64_t) + 8);
	if (mem == NULL)
		return;
	memcpy(mem, vals, nvals * sizeof(int64_t));
	memcpy(mem + nvals * sizeof(int64_t), key, keylen);
	d->dc_aggs[d->dc_naggs] = (struct dtc_aggent){ aggid, keylen, mem + nvals * sizeof(int64_t),
	                                         (int64_t *)mem, nvals };
	*hash_slot(d, aggid, key, keylen) = ++d->dc_naggs;
}

static void merge_cb(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                     const int64_t *vals, uint32_t nvals)
{
	struct dtc *d = arg;

	if (aggid >= d->dc_prog->dp_naggs)
		return;
	if (key_has_syms(dtc_agg_desc(d, aggid))) {
		uint8_t *nkey = kmalloc(MAX(keylen, 1));
		if (nkey == NULL)
			return;
		memcpy(nkey, key, keylen);
		key_normalize(d, dtc_agg_desc(d, aggid), nkey, keylen);
		merge_entry(d, aggid, nkey, keylen, vals, nvals);
		kfree(nkey);
		return;
	}
	merge_entry(d, aggid, key, keylen, vals, nvals);
}

void dtc_agg_free(struct dtc *d)
{
	for (uint32_t i = 0; i < d->dc_naggs; i++)
		kfree(d->dc_aggs[i].ae_vals);
	d->dc_naggs = 0;
	if (d->dc_agghash != NULL)
		memset(d->dc_agghash, 0, d->dc_agghash_size * sizeof(*d->dc_agghash));
}

int dtc_agg_snapshot(struct dtc *d)
{
	dtc_agg_free(d);
	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++)
		dtrace_agg_snapshot(d->dc_state, cpu, merge_cb, d);
	return 0;
}

/* ---- values ---- */

int64_t dtc_agg_normal(struct dtc *d, uint32_t aggid, int64_t v)
{
	int64_t n = d->dc_agg_normal[aggid];

	return n > 1 ? v / n : v;
}

/* isqrt128: floor(sqrt(v)) for a 128-bit v. */
static uint64_t isqrt128(unsigned __int128 v)
{
	uint64_t lo = 0, hi = UINT64_MAX;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2 + 1;
		if ((unsigned __int128)mid * mid <= v)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static uint64_t stddev_of(const int64_t *v)
{
	if (v[0] == 0)
		return 0;
	unsigned __int128 sq = ((unsigned __int128)(uint64_t)v[3] << 64) | (uint64_t)v[2];
	int64_t avg = v[1] / v[0];
	unsigned __int128 mean_sq = sq / (uint64_t)v[0];
	unsigned __int128 avg_sq = (unsigned __int128)((__int128)avg * avg);
	return mean_sq > avg_sq ? isqrt128(mean_sq - avg_sq) : 0;
}

static int64_t lquantize_step(const dt_aggdesc *ag)
{
	return ag->ag_nparams >= 3 && ag->ag_params[2] > 0 ? ag->ag_params[2] : 1;
}

static int64_t bucket_value(const dt_aggdesc *ag, uint32_t i)
{
	if (ag->ag_func == DT_AGG_QUANTIZE)
		return dtrace_quantize_bucketval((int)i);
	if (ag->ag_func == DT_AGG_LLQUANTIZE)
		return dtrace_llquantize_bucketval(ag, (int)i);
	return ag->ag_params[0] + ((int64_t)i - 1) * lquantize_step(ag);
}

/*
 * sort_weight: what one count in bucket i weighs when histograms are
 * ordered: the bucket's value; for lquantize's end buckets, base - 1 and
 * limit + 1 (as DTrace weighs them).
 */
static int64_t sort_weight(const dt_aggdesc *ag, uint32_t i, uint32_t n)
{
	if (ag->ag_func == DT_AGG_LQUANTIZE && i == 0)
		return ag->ag_params[0] - 1;
	if (ag->ag_func == DT_AGG_LQUANTIZE && i == n - 1)
		return ag->ag_params[0] + (int64_t)(n - 2) * lquantize_step(ag) + 1;
	return bucket_value(ag, i);
}

/* dtc_agg_sortval: what entries are ordered by (histograms: sum of weight x count). */
__int128 dtc_agg_sortval(struct dtc *d, const struct dtc_aggent *e)
{
	const dt_aggdesc *ag = dtc_agg_desc(d, e->ae_aggid);
	__int128 sum = 0;

	switch (ag->ag_func) {
	case DT_AGG_AVG: return e->ae_vals[0] ? e->ae_vals[1] / e->ae_vals[0] : 0;
	case DT_AGG_STDDEV: return stddev_of(e->ae_vals);
	case DT_AGG_QUANTIZE: case DT_AGG_LQUANTIZE: case DT_AGG_LLQUANTIZE:
		for (uint32_t i = 0; i < e->ae_nvals; i++)
			sum += (__int128)sort_weight(ag, i, e->ae_nvals) * e->ae_vals[i];
		return sum;
	default: return e->ae_vals[0];
	}
}

/* ---- sorting ---- */

static int keycmp(struct dtc *d, const struct dtc_aggent *a, const struct dtc_aggent *b, uint32_t from)
{
	const dt_aggdesc *ag = dtc_agg_desc(d, a->ae_aggid);
	uint32_t off = 0;

	for (uint32_t k = 0; k < ag->ag_nkeys; k++) {
		const dt_keytype *kt = &ag->ag_keys[k];
		uint32_t len = dtrace_agg_keysize(kt, d->dc_ov.dov_strsize, d->dc_ov.dov_stackframes);
		if (k >= from && off + len <= a->ae_keylen && off + len <= b->ae_keylen) {
			int c;
			if (kt->kt_string) {
				c = strcmp((const char *)a->ae_key + off, (const char *)b->ae_key + off);
			} else if (len > 8) {
				c = memcmp(a->ae_key + off, b->ae_key + off, len);   /* stack frames */
			} else {
				uint64_t x, y;
				memcpy(&x, a->ae_key + off, 8);
				memcpy(&y, b->ae_key + off, 8);
				c = x < y ? -1 : x > y;
			}
			if (c != 0)
				return c;
		}
		off += len;
	}
	return 0;
}

/* zero_count: a histogram's count in the bucket that holds 0 (DTrace's tie-breaker). */
static int64_t zero_count(struct dtc *d, const struct dtc_aggent *e)
{
	const dt_aggdesc *ag = dtc_agg_desc(d, e->ae_aggid);

	switch (ag->ag_func) {
	case DT_AGG_QUANTIZE: return e->ae_vals[DTRACE_QUANTIZE_ZEROBUCKET];
	case DT_AGG_LLQUANTIZE: return e->ae_vals[dtrace_llquantize_bucket(ag, 0)];
	case DT_AGG_LQUANTIZE: {
		/* DTrace's: the bucket whose weight (sort_weight) is exactly 0, if any */
		for (uint32_t i = 0; i < e->ae_nvals; i++)
			if (sort_weight(ag, i, e->ae_nvals) == 0)
				return e->ae_vals[i];
		return 0;
	}
	default: return 0;
	}
}

int dtc_agg_valcmp(struct dtc *d, const struct dtc_aggent *a, const struct dtc_aggent *b)
{
	__int128 va = a ? dtc_agg_sortval(d, a) : 0, vb = b ? dtc_agg_sortval(d, b) : 0;

	if (va != vb)
		return va < vb ? -1 : 1;
	int64_t za = a ? zero_count(d, a) : 0, zb = b ? zero_count(d, b) : 0;
	return za < zb ? -1 : za > zb;
}

int dtc_agg_order(struct dtc *d, const struct dtc_aggent *a, const struct dtc_aggent *b, int vc)
{
	uint32_t pos = (uint32_t)d->dc_sortkeypos < dtc_agg_desc(d, a->ae_aggid)->ag_nkeys ?
	               (uint32_t)d->dc_sortkeypos : 0;
	int kc = keycmp(d, a, b, pos);
	int c = d->dc_sortkey ? (kc ? kc : vc) : (vc ? vc : kc);

	if (c == 0)
		c = keycmp(d, a, b, 0);
	return d->dc_sortrev ? -c : c;
}

/* merge_sort: v[0..n) by cmp, stable, in n log n (10,000 keys print at once). */
static void merge_sort(void **v, void **tmp, uint32_t n, dtc_cmp_fn *cmp, void *arg)
{
	if (n < 2)
		return;
	uint32_t h = n / 2, i = 0, j = h, k = 0;
	merge_sort(v, tmp, h, cmp, arg);
	merge_sort(v + h, tmp, n - h, cmp, arg);
	while (i < h && j < n)
		tmp[k++] = cmp(arg, v[j], v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

void dtc_sort(void **v, uint32_t n, dtc_cmp_fn *cmp, void *arg)
{
	void **tmp = kmalloc((n + 1) * sizeof(*tmp));

	if (tmp != NULL)
		merge_sort(v, tmp, n, cmp, arg);
	kfree(tmp);
}

static int ent_cmp(void *arg, const void *a, const void *b)
{
	return dtc_agg_order(arg, a, b, dtc_agg_valcmp(arg, a, b));
}

/* agg_sorted: the entries of aggid (struct dtc_aggent *), sorted; *n their number.  Caller frees. */
static void **agg_sorted(struct dtc *d, uint32_t aggid, uint32_t *n)
{
	void **v = kmalloc((d->dc_naggs + 1) * sizeof(*v));
	uint32_t k = 0;

	if (v == NULL) {
		*n = 0;
		return NULL;
	}
	for (uint32_t i = 0; i < d->dc_naggs; i++)
		if (d->dc_aggs[i].ae_aggid == aggid)
			v[k++] = &d->dc_aggs[i];
	dtc_sort(v, k, ent_cmp, d);
	*n = k;
	return v;
}

void **dtc_agg_sorted(struct dtc *d, uint32_t aggid, uint32_t *n)
{
	return agg_sorted(d, aggid, n);
}

int64_t dtc_agg_bucket_value(const dt_aggdesc *ag, uint32_t i)
{
	return bucket_value(ag, i);
}

/* ---- printing ---- */

static bool is_hist_func(dt_aggfunc f)
{
	return f == DT_AGG_QUANTIZE || f == DT_AGG_LQUANTIZE || f == DT_AGG_LLQUANTIZE;
}

void dtc_agg_print_keys(struct dtc *d, const struct dtc_aggent *e)
{
	const dt_aggdesc *ag = dtc_agg_desc(d, e->ae_aggid);
	uint32_t off = 0;
	char sym[160];

	for (uint32_t k = 0; k < ag->ag_nkeys && off < e->ae_keylen; k++) {
		const dt_keytype *kt = &ag->ag_keys[k];
		uint32_t len = dtrace_agg_keysize(kt, d->dc_ov.dov_strsize, d->dc_ov.dov_stackframes);
		int64_t v;
		memcpy(&v, e->ae_key + off, 8);
		if (kt->kt_kind == DT_KEY_USTACK) {
			dtc_print_ustack(d, (const uint64_t *)(e->ae_key + off), len / 8);
		} else if (kt->kt_kind == DT_KEY_STACK) {
			dtc_print_stack(d, (const uint64_t *)(e->ae_key + off), len / 8);
		} else if (kt->kt_kind >= DT_KEY_USYM) {
			uint64_t image;
			memcpy(&image, e->ae_key + off + 8, 8);
			dtc_uaddr_format(kt->kt_kind, (uint64_t)v, image, sym, sizeof(sym));
			dtc_out("  %-50s", sym);
		} else if (kt->kt_kind == DT_KEY_SYM || kt->kt_kind == DT_KEY_MOD) {
			dtc_print_sym((uint64_t)v, false, sym, sizeof(sym));
			if (kt->kt_kind == DT_KEY_MOD && strchr(sym, '`'))
				*strchr(sym, '`') = 0;
			dtc_out("  %-50s", sym);
		} else if (kt->kt_string && d->dc_rawbytes) {
			dtc_print_bytes(e->ae_key + off, MIN(len, e->ae_keylen - off));
		} else if (kt->kt_string) {
			dtc_print_text(e->ae_key + off, MIN(len, e->ae_keylen - off), 50);
		} else {
			dtc_print_int(v, kt->kt_size, false);
		}
		off += len;
	}
}

/*
 * print_bar: one row's bar, depth = round(|c| x width / total), computed in
 * 128 bits so that counts near 2^63 and totals beyond 2^64 still scale.
 */
static void print_bar(int64_t c, unsigned __int128 total, bool neg_only, bool mixed)
{
	char bar[48];
	uint64_t mag = c < 0 ? -(uint64_t)c : (uint64_t)c;
	int width = mixed ? 20 : 40;
	int depth = total ? (int)(((unsigned __int128)mag * (unsigned)width + total / 2) / total) : 0;
	int n = 0;

	if (!mixed && !neg_only) {
		bar[n++] = '|';
		for (int i = 0; i < 40; i++)
			bar[n++] = i < depth ? '@' : ' ';
	} else if (!mixed) {
		for (int i = 0; i < 40; i++)
			bar[n++] = i >= 40 - depth ? '@' : ' ';
		bar[n++] = '|';
	} else {
		for (int i = 0; i < 20; i++)
			bar[n++] = (c < 0 && i >= 20 - depth) ? '@' : ' ';
		bar[n++] = '|';
		for (int i = 0; i < 20; i++)
			bar[n++] = (c > 0 && i < depth) ? '@' : ' ';
	}
	bar[n] = 0;
	dtc_out("%s", bar);
}

void dtc_agg_print_hist(struct dtc *d, const struct dtc_aggent *e, bool blank_after)
{
	const dt_aggdesc *ag = dtc_agg_desc(d, e->ae_aggid);
	uint32_t n = e->ae_nvals, first = n, last = 0;
	unsigned __int128 total = 0, largest = 0;
	bool pos = false, neg = false;

	for (uint32_t i = 0; i < n; i++) {
		int64_t c = e->ae_vals[i];             /* raw: normalize() changes counts, not bars */
		uint64_t mag = c < 0 ? -(uint64_t)c : (uint64_t)c;
		if (c != 0) {
			first = MIN(first, i);
			last = i;
		}
		total += mag;
		largest = MAX(largest, mag);
		pos |= c > 0;
		neg |= c < 0;
	}
	if (d->dc_aggzoom)                         /* the largest bucket fills its bar */
		total = largest;
	if (first == n)
		first = last = ag->ag_func == DT_AGG_QUANTIZE ? DTRACE_QUANTIZE_ZEROBUCKET :
		               ag->ag_func == DT_AGG_LQUANTIZE ? 1 : 0;
	uint32_t lo = first > 0 ? first - 1 : 0, hi = last + 1 < n ? last + 1 : n - 1;
	dtc_out("\n%16s %41s %-9s\n", "value", "------------- Distribution -------------", "count");
	for (uint32_t i = lo; i <= hi; i++) {
		int64_t c = e->ae_vals[i];
		char label[32];
		if (ag->ag_func == DT_AGG_LQUANTIZE && i == 0)
			ksnprintf(label, sizeof(label), "< %lld", (long long)ag->ag_params[0]);
		else if (ag->ag_func == DT_AGG_LQUANTIZE && i == n - 1)
			ksnprintf(label, sizeof(label), ">= %lld", (long long)(ag->ag_params[0] +
			          (int64_t)(n - 2) * lquantize_step(ag)));
		else if (ag->ag_func == DT_AGG_LLQUANTIZE && i == 0)
			ksnprintf(label, sizeof(label), "< %lld", (long long)dtrace_llquantize_bucketval(ag, 1));
		else if (ag->ag_func == DT_AGG_LLQUANTIZE && i == n - 1)
			ksnprintf(label, sizeof(label), ">= %lld", (long long)bucket_value(ag, i));
		else
			ksnprintf(label, sizeof(label), "%lld", (long long)bucket_value(ag, i));
		dtc_out("%16s ", label);
		print_bar(c, total, neg && !pos, neg && pos);
		dtc_out(" %-9lld\n", (long long)dtc_agg_normal(d, e->ae_aggid, c));
	}
	if (blank_after)
		dtc_out("\n");
}

void dtc_agg_print_value(struct dtc *d, const struct dtc_aggent *e)
{
	const dt_aggdesc *ag = dtc_agg_desc(d, e->ae_aggid);
	const int64_t *v = e->ae_vals;

	switch (ag->ag_func) {
	case DT_AGG_QUANTIZE: case DT_AGG_LQUANTIZE: case DT_AGG_LLQUANTIZE:
		dtc_agg_print_hist(d, e, true);
		return;
	case DT_AGG_AVG:
		dtc_out(" %16lld", (long long)dtc_agg_normal(d, e->ae_aggid, v[0] ? v[1] / v[0] : 0));
		break;
	case DT_AGG_STDDEV:
		dtc_out(" %16llu", (unsigned long long)dtc_agg_normal(d, e->ae_aggid, (int64_t)stddev_of(v)));
		break;
	default:
		dtc_out(" %16lld", (long long)dtc_agg_normal(d, e->ae_aggid, v[0]));
		break;
	}
}

/* value_bare: e's value with nothing after it (histograms: no blank line). */
static void value_bare(struct dtc *d, const struct dtc_aggent *e)
{
	if (is_hist_func(dtc_agg_desc(d, e->ae_aggid)->ag_func))
		dtc_agg_print_hist(d, e, false);
	else
		dtc_agg_print_value(d, e);
}

/* One CPU's entries for one merged entry, added up (min and max: the first taken whole). */
struct cpu_walk {
	struct dtc *cw_d;
	const struct dtc_aggent *cw_e;
	int64_t *cw_vals;
	bool cw_found;
};

static void cpu_cb(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                   const int64_t *vals, uint32_t nvals)
{
	struct cpu_walk *cw = arg;
	const struct dtc_aggent *e = cw->cw_e;

	if (aggid != e->ae_aggid || keylen != e->ae_keylen)
		return;
	uint8_t *nkey = kmalloc(MAX(keylen, 1));
	if (nkey == NULL)
		return;
	memcpy(nkey, key, keylen);
	key_normalize(cw->cw_d, dtc_agg_desc(cw->cw_d, aggid), nkey, keylen);
	if (memcmp(nkey, e->ae_key, keylen) == 0) {
		uint32_t n = MIN(nvals, e->ae_nvals);
		if (!cw->cw_found)
			memcpy(cw->cw_vals, vals, n * sizeof(int64_t));
		else
			dtrace_agg_merge(dtc_agg_desc(cw->cw_d, aggid), cw->cw_vals, vals, n);
		cw->cw_found = true;
	}
	kfree(nkey);
}

void dtc_agg_print_percpu(struct dtc *d, const struct dtc_aggent *e)
{
	if (!d->dc_aggpercpu)
		return;
	int64_t *vals = kmalloc((e->ae_nvals + 1) * sizeof(int64_t));
	if (vals == NULL)
		return;
	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++) {
		struct cpu_walk cw = { d, e, vals, false };
		memset(vals, 0, e->ae_nvals * sizeof(int64_t));
		dtrace_agg_snapshot(d->dc_state, cpu, cpu_cb, &cw);
		struct dtc_aggent one = *e;
		one.ae_vals = vals;
		dtc_out("\n    [CPU %d]", cpu);
		value_bare(d, &one);
	}
	kfree(vals);
}

static void print_entry(struct dtc *d, const struct dtc_aggent *e)
{
	dtc_agg_print_keys(d, e);
	value_bare(d, e);
	dtc_agg_print_percpu(d, e);
	dtc_out("\n");
}

static void print_agg(struct dtc *d, uint32_t aggid)
{
	uint32_t n;

	if (d->dc_json) {                              /* -x oformat=json: dtc_json.c */
		dtc_json_agg(d, aggid);
		return;
	}
	void **v = agg_sorted(d, aggid, &n);

	for (uint32_t i = 0; i < n; i++)
		print_entry(d, v[i]);
	kfree(v);
}

static bool agg_has_data(struct dtc *d, uint32_t aggid)
{
	for (uint32_t i = 0; i < d->dc_naggs; i++)
		if (d->dc_aggs[i].ae_aggid == aggid)
			return true;
	return false;
}

/*
 * dtc_agg_print_all: every aggregation not printed yet, in the order of
 * their ids; libdtrace sorts all entries at once with the aggregation's id
 * as the first key, so aggsortrev reverses the order of the aggregations
 * too.
 */
void dtc_agg_print_all(struct dtc *d)
{
	uint32_t n = d->dc_prog->dp_naggs;

	dtc_agg_snapshot(d);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = d->dc_sortrev ? n - 1 - i : i;
		if (!d->dc_agg_printed[id] && agg_has_data(d, id))
			print_agg(d, id);
	}
}

/* The raw entries of one aggregation whose merged (normalized) entry trunc() drops. */
struct trunc_walk {
	struct dtc *tw_d;
	uint32_t tw_aggid;
	const bool *tw_drop;                        /* [index in d->dc_aggs] */
};

static void trunc_raw_cb(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                         const int64_t *vals, uint32_t nvals)
{
	struct trunc_walk *tw = arg;
	struct dtc *d = tw->tw_d;

	(void)vals;
	(void)nvals;
	if (aggid != tw->tw_aggid)
		return;
	uint8_t *nkey = kmalloc(MAX(keylen, 1));
	if (nkey == NULL)
		return;
	memcpy(nkey, key, keylen);
	key_normalize(d, dtc_agg_desc(d, aggid), nkey, keylen);
	struct dtc_aggent *e = dtc_agg_find(d, aggid, nkey, keylen);
	if (e != NULL && tw->tw_drop[e - d->dc_aggs]) {
		memcpy(nkey, key, keylen);              /* the kernel knows the raw key */
		dtrace_agg_remove(d->dc_state, aggid, nkey, keylen);
	}
	kfree(nkey);
}

/* trunc_remove: forget the entries marked in drop; with func/sym/mod keys, every raw one merged in it. */
static void trunc_remove(struct dtc *d, uint32_t id, const bool *drop)
{
	if (key_has_syms(dtc_agg_desc(d, id))) {
		struct trunc_walk tw = { d, id, drop };
		for (int cpu = 0; cpu < dtrace_ncpus(); cpu++)
			dtrace_agg_snapshot(d->dc_state, cpu, trunc_raw_cb, &tw);
		return;
	}
	for (uint32_t i = 0; i < d->dc_naggs; i++)
		if (drop[i])
			dtrace_agg_remove(d->dc_state, id, d->dc_aggs[i].ae_key, d->dc_aggs[i].ae_keylen);
}

/* agg_trunc: keep the keep largest entries (the -keep smallest if negative; none if 0). */
static void agg_trunc(struct dtc *d, uint32_t id, int64_t keep)
{
	uint32_t n;

	if (keep == 0) {
		dtrace_agg_remove(d->dc_state, id, NULL, 0);
		return;
	}
	dtc_agg_snapshot(d);
	int sk = d->dc_sortkey, sr = d->dc_sortrev;
	d->dc_sortkey = d->dc_sortrev = 0;                /* trunc ranks by value */
	void **v = agg_sorted(d, id, &n);
	d->dc_sortkey = sk;
	d->dc_sortrev = sr;
	bool *drop = kzalloc(MAX(d->dc_naggs, 1) * sizeof(bool));
	uint64_t k = keep > 0 ? (uint64_t)keep : -(uint64_t)keep;
	for (uint32_t i = 0; v != NULL && drop != NULL && i < n; i++) {
		const struct dtc_aggent *e = v[i];
		bool kept = keep > 0 ? (uint64_t)(n - i) <= k : (uint64_t)i < k;
		drop[e - d->dc_aggs] = !kept;
	}
	if (v != NULL && drop != NULL)
		trunc_remove(d, id, drop);
	kfree(drop);
	kfree(v);
}

/* dtc_agg_apply: clear, trunc, normalize, denormalize, as their records arrive. */
void dtc_agg_apply(struct dtc *d, const dt_action *a, int64_t value)
{
	uint32_t id = a->ac_naggs ? a->ac_aggs[0] : 0;

	if (a->ac_naggs == 0 || id >= d->dc_prog->dp_naggs)
		return;
	switch (a->ac_kind) {
	case DT_ACT_CLEAR: dtrace_agg_clear(d->dc_state, id); break;
	case DT_ACT_TRUNC:
		agg_trunc(d, id, a->ac_nargs ? value : 0);
		break;
	case DT_ACT_NORMALIZE: d->dc_agg_normal[id] = value > 0 ? value : 1; break;
	case DT_ACT_DENORMALIZE: d->dc_agg_normal[id] = 1; break;
	default: break;
	}
}
