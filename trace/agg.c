/*
 * agg.c - aggregations at the source: per-CPU buffers of (key, value).
 *
 * Each CPU's aggregation buffer is a hash table whose entries are carved
 * from aggsize bytes (clear() zeroes values, the consumer's trunc() hides
 * entries).  An entry is (aggregation index, key tuple, value words);
 * dtrace.h describes the key and value layouts.  Nothing here is shared
 * between CPUs, so probe context writes no shared cache line: the consumer
 * merges the CPUs' tables when it reads them.
 *
 * The long-running state: as in DTrace, the per-CPU buffers only stage
 * what probes aggregate between two readings; the consumer drains them at
 * the aggrate option (dtrace_agg_drain, default once a second) into the
 * state's kept table (dts_aggkept), which grows in thread context as keys
 * come, so a small aggsize drops only the new keys of one aggrate period,
 * and a faster aggrate avoids aggregation drops, as the Guide's
 * "Minimizing Drops" says.  The drain copies a CPU's buffer out and empties
 * it on that CPU by cross-call, interrupts off, between two firings there;
 * then merges the copy into the kept table (counts and sums add, min and
 * max keep the extreme).  dtrace_agg_snapshot reports the kept table with
 * CPU 0's entries; clear() and trunc() apply to it as to the CPUs' buffers.
 * The kept table is touched by the consumer's thread only.
 *
 * Tests: self-tests trace_aggregations_exact, trace_agg_drain_keeps_every_key,
 *        trace_smp_aggregation_merge_exact, stress_aggregation_churn;
 *        tests/d/aggs, tests/d/agg-exit, tests/d/limits
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/xcall.h"
#include "trace/trace_impl.h"

typedef struct agg_entry {
	uint32_t ae_next;                 /* offset+1 of the next entry in the chain */
	uint32_t ae_aggid;
	uint32_t ae_keylen;               /* a multiple of 8 */
	uint32_t ae_nvals;
	/* key bytes, then int64_t values */
} agg_entry_t;

int dtrace_aggbuf_alloc(dtrace_aggbuf_t *a, uint64_t size)
{
	memset(a, 0, sizeof(*a));
	a->dta_size = ALIGN_DOWN(size, 8);
	a->dta_nbuckets = 256;                      /* about one bucket per 256 bytes of entries */
	while (a->dta_nbuckets < 65536 && (uint64_t)a->dta_nbuckets * 256 < a->dta_size)
		a->dta_nbuckets *= 2;
	a->dta_base = kmalloc(MAX(a->dta_size, 8));   /* 0: every update is a drop */
	a->dta_bucket = kzalloc(a->dta_nbuckets * sizeof(uint32_t));
	return a->dta_base && a->dta_bucket ? 0 : DTRACE_ENOMEM;
}

void dtrace_aggbuf_free(dtrace_aggbuf_t *a)
{
	kfree(a->dta_base);
	kfree(a->dta_bucket);
	a->dta_base = NULL;
	a->dta_bucket = NULL;
}

/* ---- bucket arithmetic (pure) ---- */

int64_t dtrace_quantize_bucketval(int i)
{
	if (i < DTRACE_QUANTIZE_ZEROBUCKET)
		return -(int64_t)(1ULL << (DTRACE_QUANTIZE_ZEROBUCKET - 1 - i));
	if (i == DTRACE_QUANTIZE_ZEROBUCKET)
		return 0;
	return (int64_t)(1ULL << (i - DTRACE_QUANTIZE_ZEROBUCKET - 1));
}

int dtrace_quantize_bucket(int64_t v)
{
	int i;

	if (v < 0) {
		for (i = 0; i < DTRACE_QUANTIZE_ZEROBUCKET; i++)
			if (v <= dtrace_quantize_bucketval(i))
				return i;
		return DTRACE_QUANTIZE_ZEROBUCKET - 1;
	}
	if (v == 0)
		return DTRACE_QUANTIZE_ZEROBUCKET;
	for (i = DTRACE_QUANTIZE_ZEROBUCKET + 1; i < DTRACE_QUANTIZE_NBUCKETS; i++)
		if (v < dtrace_quantize_bucketval(i))
			return i - 1;
	return DTRACE_QUANTIZE_NBUCKETS - 1;
}

static int64_t lquantize_levels(const dt_aggdesc *ag)
{
	int64_t step = ag->ag_nparams >= 3 && ag->ag_params[2] > 0 ? ag->ag_params[2] : 1;

	return (ag->ag_params[1] - ag->ag_params[0]) / step;
}

/*
 * llquantize(v, factor, low, high, nsteps), the illumos layout: bucket 0
 * holds v < factor^low; then each order m from low to high splits
 * [factor^m, factor^(m+1)) into n = min(nsteps, factor^(m+1)) steps of equal
 * width factor^(m+1)/n, of which the n/factor steps below factor^m are not
 * used; the last bucket holds v >= factor^(high+1).
 */
static uint64_t ll_pow(uint64_t f, uint64_t e)
{
	uint64_t r = 1;

	while (e-- > 0)
		r = r > INT64_MAX / f ? (uint64_t)INT64_MAX : r * f;
	return r;
}

static uint64_t ll_steps(const dt_aggdesc *ag, uint64_t top)
{
	uint64_t nsteps = (uint64_t)ag->ag_params[3];

	return top > nsteps ? nsteps : top;
}

uint32_t dtrace_llquantize_nbuckets(const dt_aggdesc *ag)
{
	uint64_t f = (uint64_t)ag->ag_params[0], n = 2;

	if (ag->ag_nparams < 4 || f < 2 || ag->ag_params[3] < 1 || ag->ag_params[1] > ag->ag_params[2] ||
	    ag->ag_params[2] > 64)
		return 0;
	for (int64_t m = ag->ag_params[1]; m <= ag->ag_params[2]; m++) {
		uint64_t steps = ll_steps(ag, ll_pow(f, (uint64_t)m + 1));
		n += steps - steps / f;
	}
	return n > 100000 ? 0 : (uint32_t)n;
}

int dtrace_llquantize_bucket(const dt_aggdesc *ag, int64_t v)
{
	uint64_t f = (uint64_t)ag->ag_params[0];
	uint64_t lo = ll_pow(f, (uint64_t)ag->ag_params[1]);
	int idx = 1;

	if (v < (int64_t)lo)
		return 0;
	for (int64_t m = ag->ag_params[1]; m <= ag->ag_params[2]; m++) {
		uint64_t top = ll_pow(f, (uint64_t)m + 1), steps = ll_steps(ag, top);
		if ((uint64_t)v < top)
			return idx + (int)(((uint64_t)v - lo) / (top / steps));
		idx += (int)(steps - steps / f);
		lo = top;
	}
	return idx;                                 /* the overflow bucket */
}

int64_t dtrace_llquantize_bucketval(const dt_aggdesc *ag, int i)
{
	uint64_t f = (uint64_t)ag->ag_params[0];
	uint64_t lo = ll_pow(f, (uint64_t)ag->ag_params[1]);
	int idx = 1;

	if (i == 0)
		return 0;
	for (int64_t m = ag->ag_params[1]; m <= ag->ag_params[2]; m++) {
		uint64_t top = ll_pow(f, (uint64_t)m + 1), steps = ll_steps(ag, top);
		int used = (int)(steps - steps / f);
		if (i < idx + used)
			return (int64_t)(lo + (uint64_t)(i - idx) * (top / steps));
		idx += used;
		lo = top;
	}
	return (int64_t)lo;
}

uint32_t dtrace_agg_nvals(const dt_aggdesc *ag)
{
	switch (ag->ag_func) {
	case DT_AGG_AVG: return 2;
	case DT_AGG_STDDEV: return 4;
	case DT_AGG_QUANTIZE: return DTRACE_QUANTIZE_NBUCKETS;
	case DT_AGG_LQUANTIZE: return (uint32_t)lquantize_levels(ag) + 2;
	case DT_AGG_LLQUANTIZE: return dtrace_llquantize_nbuckets(ag);
	default: return 1;
	}
}

uint32_t dtrace_agg_keysize(const dt_keytype *kt, uint32_t strsize, uint32_t stackframes)
{
	if (kt->kt_kind == DT_KEY_USTACK)            /* the image, then the frames (probe.c) */
		return 8 * (1 + (kt->kt_frames ? kt->kt_frames : DTRACE_USTACK_FRAMES));
	if (kt->kt_kind == DT_KEY_STACK)
		return 8 * (kt->kt_frames ? kt->kt_frames : stackframes);
	if (kt->kt_kind >= DT_KEY_USYM)
		return 16;                               /* the pc, then the process's image */
	return kt->kt_string ? (uint32_t)ALIGN_UP(strsize, 8) : 8;
}

uint32_t dtrace_agg_keylen(const dt_aggdesc *ag, uint32_t strsize, uint32_t stackframes)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < ag->ag_nkeys; i++)
		n += dtrace_agg_keysize(&ag->ag_keys[i], strsize, stackframes);
	return n;
}

void dtrace_agg_segments(struct dtrace_aggshape *shape, uint32_t strsize, uint32_t stackframes)
{
	const dt_aggdesc *ag = shape->das_desc;
	bool str = false;

	shape->das_nseg = 0;
	for (uint32_t i = 0; i < ag->ag_nkeys && i < DT_MAXKEYS; i++) {
		const dt_keytype *kt = &ag->ag_keys[i];
		shape->das_seg[i].ks_words = dtrace_agg_keysize(kt, strsize, stackframes) / 8;
		shape->das_seg[i].ks_str = kt->kt_string && kt->kt_kind == DT_KEY_VALUE;
		str |= shape->das_seg[i].ks_str != 0;
	}
	if (str && ag->ag_nkeys <= DT_MAXKEYS)
		shape->das_nseg = ag->ag_nkeys;
}

/* ---- probe context ---- */

/*
 * String keys in place.  A string element of a key is strsize bytes, but
 * the words after the one holding its NUL say nothing: a stored key has
 * them zero (dtrace_agg_insert writes them), and a key being looked up
 * need not (probe.c's key copy stops at the NUL's word, no memset to
 * strsize).  So a string element is hashed and compared only up to the
 * first word with a zero byte in it (seg_words): equal strings give equal
 * words up to there, and a shorter stored string has its zero byte in a
 * word where the longer one has none.  Keys without a string (das_nseg 0)
 * are whole words, as before.
 */
static inline bool word_has_zero(uint64_t w)
{
	return ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) != 0;
}

/* seg_words: the words of element seg at w that count (see above). */
static inline uint32_t seg_words(const struct dtrace_keyseg *seg, const uint64_t *w)
{
	if (!seg->ks_str)
		return seg->ks_words;
	for (uint32_t i = 0; i < seg->ks_words; i++)
		if (word_has_zero(w[i]))
			return i + 1;
	return seg->ks_words;
}

static inline uint64_t hash_words(uint64_t h, const uint64_t *w, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		h = (h ^ w[i]) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	return h;
}

/*
 * agg_hash: the bucket of (aggid, key).  Keys are whole 8-byte words
 * (key_equal), so the hash takes a word at a time: multiply, fold the high
 * bits down, then fold the 64 bits into the bucket index.
 */
static uint32_t agg_hash(const dtrace_aggbuf_t *a, const struct dtrace_aggshape *shape,
                         uint32_t aggid, const uint8_t *key, uint32_t keylen)
{
	const uint64_t *w = (const uint64_t *)key;
	uint64_t h = TRACE_HASH_SEED ^ aggid;

	if (shape->das_nseg == 0) {
		h = hash_words(h, w, keylen / 8);
	} else {
		for (uint32_t s = 0; s < shape->das_nseg; w += shape->das_seg[s].ks_words, s++) {
			const struct dtrace_keyseg *seg = &shape->das_seg[s];
			for (uint32_t i = 0; i < seg->ks_words; i++) {   /* hash_words, to the NUL's word */
				h = (h ^ w[i]) * 0x9e3779b97f4a7c15ull;
				h ^= h >> 29;
				if (seg->ks_str && word_has_zero(w[i]))
					break;
			}
		}
	}
	return (uint32_t)(h ^ (h >> 32)) & (a->dta_nbuckets - 1);
}

static void vals_init(const dt_aggdesc *ag, int64_t *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)            /* a word or two, mostly: no call */
		v[i] = 0;
	if (ag->ag_func == DT_AGG_MIN)
		v[0] = INT64_MAX;
	if (ag->ag_func == DT_AGG_MAX)
		v[0] = INT64_MIN;
}

/* key_equal: compare two keys of n bytes (a multiple of 8) without a call. */
static inline bool key_equal(const uint8_t *a, const uint8_t *b, uint32_t n)
{
	const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;

	for (uint32_t i = 0; i < n / 8; i++) {
		if (x[i] != y[i])
			return false;
	}
	return true;
}

/* key_equal_seg: stored key a against key b, element by element (see "String keys in place"). */
static bool key_equal_seg(const struct dtrace_aggshape *shape, const uint8_t *a, const uint8_t *b)
{
	const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;

	for (uint32_t s = 0; s < shape->das_nseg; s++) {
		const struct dtrace_keyseg *seg = &shape->das_seg[s];
		for (uint32_t i = 0; i < seg->ks_words; i++) {
			if (x[i] != y[i])
				return false;
			if (seg->ks_str && word_has_zero(y[i]))
				break;               /* seg_words' end */
		}
		x += shape->das_seg[s].ks_words;
		y += shape->das_seg[s].ks_words;
	}
	return true;
}

/*
 * dtrace_agg_find: this CPU's value words for the aggregation shape
 * describes under key (shape->das_keylen bytes), or NULL, with *bucket set
 * for dtrace_agg_insert.  Makes no call: the common case, a key seen
 * before, saves no registers.
 */
int64_t *dtrace_agg_find(dtrace_aggbuf_t *a, const struct dtrace_aggshape *shape, const uint8_t *key,
                         uint32_t *bucket)
{
	const dt_aggdesc *ag = shape->das_desc;
	uint32_t keylen = shape->das_keylen;
	uint32_t h = agg_hash(a, shape, ag->ag_id, key, keylen);

	for (uint32_t off = a->dta_bucket[h]; off != 0;) {
		agg_entry_t *e = (agg_entry_t *)(a->dta_base + off - 1);
		if (e->ae_aggid == ag->ag_id && e->ae_keylen == keylen &&
		    (shape->das_nseg == 0 ? key_equal((const uint8_t *)(e + 1), key, keylen) :
		     key_equal_seg(shape, (const uint8_t *)(e + 1), key)))
			return (int64_t *)((uint8_t *)(e + 1) + keylen);
		off = e->ae_next;
	}
	*bucket = h;
	return NULL;
}

/* key_store_seg: a stored key: each string's words after its NUL's word zeroed. */
static void key_store_seg(const struct dtrace_aggshape *shape, uint64_t *to, const uint64_t *from)
{
	for (uint32_t s = 0; s < shape->das_nseg; s++) {
		uint32_t n = seg_words(&shape->das_seg[s], from), all = shape->das_seg[s].ks_words;
		for (uint32_t i = 0; i < all; i++)
			to[i] = i < n ? from[i] : 0;
		to += all;
		from += all;
	}
}

/*
 * dtrace_agg_insert: a new entry for key in bucket (from dtrace_agg_find),
 * its values initialised; NULL when the buffer is full (counted).
 */
int64_t *dtrace_agg_insert(dtrace_aggbuf_t *a, const struct dtrace_aggshape *shape, const uint8_t *key,
                           uint32_t bucket)
{
	const dt_aggdesc *ag = shape->das_desc;
	uint32_t keylen = shape->das_keylen, nvals = shape->das_nvals;
	uint64_t need = sizeof(agg_entry_t) + keylen + nvals * sizeof(int64_t);

	if (a->dta_used + need > a->dta_size || a->dta_used + need > UINT32_MAX) {
		a->dta_drops++;
		return NULL;
	}
	agg_entry_t *e = (agg_entry_t *)(a->dta_base + a->dta_used);
	e->ae_aggid = ag->ag_id;
	e->ae_keylen = keylen;
	e->ae_nvals = nvals;
	if (shape->das_nseg == 0) {
		for (uint32_t i = 0; i < keylen / 8; i++)   /* whole words (key_equal), no call */
			((uint64_t *)(e + 1))[i] = ((const uint64_t *)key)[i];
	} else {
		key_store_seg(shape, (uint64_t *)(e + 1), (const uint64_t *)key);
	}
	int64_t *v = (int64_t *)((uint8_t *)(e + 1) + keylen);
	vals_init(ag, v, nvals);
	e->ae_next = a->dta_bucket[bucket];
	a->dta_bucket[bucket] = (uint32_t)a->dta_used + 1;
	/* Publish last: a consumer on another CPU walks up to dta_used. */
	__atomic_store_n(&a->dta_used, a->dta_used + need, __ATOMIC_RELEASE);
	return v;
}

/*
 * dtrace_agg_nokey: the value words of keyless aggregation shape on this
 * CPU, made at its first update and cached in dta_nokey from then on (an
 * entry never moves while tracing; trunc() empties the cache on every
 * CPU, agg_remove_local); NULL when the buffer is full (counted).
 */
int64_t *dtrace_agg_nokey(dtrace_aggbuf_t *a, const struct dtrace_aggshape *shape)
{
	uint32_t id = shape->das_desc->ag_id, bucket;
	int64_t *v = dtrace_agg_find(a, shape, NULL, &bucket);

	if (v == NULL)
		v = dtrace_agg_insert(a, shape, NULL, bucket);
	if (v != NULL && id < DTRACE_AGG_NOKEY)
		a->dta_nokey[id] = v;
	return v;
}

/*
 * agg_insert_word: dtrace_agg_insert for a one-word key, inline in
 * dtrace_agg_word (a new key every firing is a common shape): the same
 * entry, with the key stored as the word it is.
 */
static inline __attribute__((always_inline)) int64_t *agg_insert_word(dtrace_aggbuf_t *a,
                                                                     const struct dtrace_aggshape *shape,
                                                                     uint64_t k, uint32_t bucket)
{
	const dt_aggdesc *ag = shape->das_desc;
	uint32_t nvals = shape->das_nvals;
	uint64_t need = sizeof(agg_entry_t) + 8 + nvals * sizeof(int64_t);

	if (a->dta_used + need > a->dta_size || a->dta_used + need > UINT32_MAX) {
		a->dta_drops++;
		return NULL;
	}
	agg_entry_t *e = (agg_entry_t *)(a->dta_base + a->dta_used);
	e->ae_aggid = ag->ag_id;
	e->ae_keylen = 8;
	e->ae_nvals = nvals;
	*(uint64_t *)(e + 1) = k;
	int64_t *v = (int64_t *)((uint8_t *)(e + 1) + 8);
	vals_init(ag, v, nvals);
	e->ae_next = a->dta_bucket[bucket];
	a->dta_bucket[bucket] = (uint32_t)a->dta_used + 1;
	__atomic_store_n(&a->dta_used, a->dta_used + need, __ATOMIC_RELEASE);   /* published last */
	return v;
}

/*
 * dtrace_agg_word: the value words of aggregation shape (one 8-byte key)
 * under key k on this CPU, found or made: dtrace_agg_find and
 * dtrace_agg_insert for the commonest keyed shape, without their loops.
 * NULL when the buffer is full (counted).
 */
int64_t *dtrace_agg_word(dtrace_aggbuf_t *a, const struct dtrace_aggshape *shape, uint64_t k)
{
	uint32_t id = shape->das_desc->ag_id;
	uint64_t h = ((TRACE_HASH_SEED ^ id) ^ k) * 0x9e3779b97f4a7c15ull;

	h ^= h >> 29;                               /* agg_hash of one word */
	uint32_t b = (uint32_t)(h ^ (h >> 32)) & (a->dta_nbuckets - 1);
	for (uint32_t off = a->dta_bucket[b]; off != 0;) {
		agg_entry_t *e = (agg_entry_t *)(a->dta_base + off - 1);
		if (e->ae_aggid == id && e->ae_keylen == 8 && *(const uint64_t *)(e + 1) == k)
			return (int64_t *)((uint8_t *)(e + 1) + 8);
		off = e->ae_next;
	}
	return agg_insert_word(a, shape, k, b);
}

static void stddev_add(int64_t *v, int64_t x)
{
	uint64_t mag = x < 0 ? -(uint64_t)x : (uint64_t)x;
	unsigned __int128 sq = (unsigned __int128)mag * mag;
	unsigned __int128 acc = ((unsigned __int128)(uint64_t)v[3] << 64) | (uint64_t)v[2];

	acc += sq;
	v[0]++;
	v[1] += x;
	v[2] = (int64_t)(uint64_t)acc;
	v[3] = (int64_t)(uint64_t)(acc >> 64);
}

static void lquantize_add(const dt_aggdesc *ag, int64_t *v, int64_t x, int64_t incr)
{
	int64_t base = ag->ag_params[0], levels = lquantize_levels(ag);
	int64_t step = ag->ag_nparams >= 3 && ag->ag_params[2] > 0 ? ag->ag_params[2] : 1;

	if (x < base)
		v[0] += incr;
	else if (x >= base + levels * step)
		v[levels + 1] += incr;
	else
		v[1 + (x - base) / step] += incr;
}

/*
 * dtrace_agg_apply_more: the update of the functions that need more than a
 * word or two (dtrace_agg_apply in trace_impl.h does the others inline):
 * value x, and the increment quantize and its kin take.
 */
void dtrace_agg_apply_more(const dt_aggdesc *ag, int64_t *v, int64_t x, int64_t incr)
{
	switch (ag->ag_func) {
	case DT_AGG_STDDEV: stddev_add(v, x); break;
	case DT_AGG_QUANTIZE: v[dtrace_quantize_bucket(x)] += incr; break;
	case DT_AGG_LQUANTIZE: lquantize_add(ag, v, x, incr); break;
	case DT_AGG_LLQUANTIZE: v[dtrace_llquantize_bucket(ag, x)] += incr; break;
	default: break;
	}
}

/* ---- consumer side ---- */

static void agg_walk(const dtrace_aggbuf_t *a, dtrace_agg_fn *fn, void *arg);

int dtrace_agg_snapshot(dtrace_state_t *s, int cpu, dtrace_agg_fn *fn, void *arg)
{
	if (cpu < 0 || cpu >= ncpus)
		return DTRACE_EINVAL;
	if (cpu == 0 && s->dts_aggkept.dta_base != NULL)
		agg_walk(&s->dts_aggkept, fn, arg);     /* what earlier drains kept */
	agg_walk(&s->dts_agg[cpu], fn, arg);
	return 0;
}

/* agg_walk: fn for every live entry of a, up to what is published. */
static void agg_walk(const dtrace_aggbuf_t *a, dtrace_agg_fn *fn, void *arg)
{
	uint64_t used = __atomic_load_n(&a->dta_used, __ATOMIC_ACQUIRE);

	for (uint64_t off = 0; off < used;) {
		agg_entry_t *e = (agg_entry_t *)(a->dta_base + off);
		const uint8_t *key = (const uint8_t *)(e + 1);
		if (e->ae_aggid != UINT32_MAX)
			fn(arg, e->ae_aggid, key, e->ae_keylen, (const int64_t *)(key + e->ae_keylen),
			   e->ae_nvals);
		off += sizeof(*e) + e->ae_keylen + e->ae_nvals * sizeof(int64_t);
	}
}

/*
 * dtrace_agg_remove: forget aggregation aggid's entry for key (all of the
 * aggregation's entries if key is NULL) on every CPU; a later update starts
 * a new entry.  The space stays used until the consumer closes.
 */
struct agg_op {
	dtrace_state_t *ao_s;
	uint32_t ao_aggid;
	const void *ao_key;
	uint32_t ao_keylen;
};

/* agg_remove_local: on each CPU in turn (cross-call), its own buffer. */
static bool entry_matches(const agg_entry_t *e, const struct agg_op *op)
{
	return e->ae_aggid == op->ao_aggid && (op->ao_key == NULL ||
	       (e->ae_keylen == op->ao_keylen && memcmp(e + 1, op->ao_key, op->ao_keylen) == 0));
}

static void agg_remove_in(dtrace_aggbuf_t *a, const struct agg_op *op)
{
	for (uint32_t h = 0; h < a->dta_nbuckets; h++) {
		for (uint32_t *link = &a->dta_bucket[h]; *link != 0;) {
			agg_entry_t *e = (agg_entry_t *)(a->dta_base + *link - 1);
			if (entry_matches(e, op)) {
				*link = e->ae_next;
				e->ae_aggid = UINT32_MAX;       /* dead: snapshots skip it */
			} else {
				link = &e->ae_next;
			}
		}
	}
	memset(a->dta_nokey, 0, sizeof(a->dta_nokey));  /* after: a removed entry is found afresh */
}

static void agg_remove_local(void *arg)
{
	struct agg_op *op = arg;

	agg_remove_in(&op->ao_s->dts_agg[arch_cpu_id()], op);
}

void dtrace_agg_remove(dtrace_state_t *s, uint32_t aggid, const void *key, uint32_t keylen)
{
	struct agg_op op = { s, aggid, key, keylen };

	xcall_all(agg_remove_local, &op);
	if (s->dts_aggkept.dta_base != NULL)
		agg_remove_in(&s->dts_aggkept, &op);
}

static void agg_clear_in(dtrace_aggbuf_t *a, const struct agg_op *op)
{
	for (uint64_t off = 0; off < a->dta_used;) {
		agg_entry_t *e = (agg_entry_t *)(a->dta_base + off);
		int64_t *v = (int64_t *)((uint8_t *)(e + 1) + e->ae_keylen);
		if (e->ae_aggid != UINT32_MAX && (op->ao_aggid == UINT32_MAX || e->ae_aggid == op->ao_aggid))
			memset(v, 0, e->ae_nvals * sizeof(*v));       /* clear() zeroes, min and max too */
		off += sizeof(*e) + e->ae_keylen + e->ae_nvals * sizeof(int64_t);
	}
}

static void agg_clear_local(void *arg)
{
	struct agg_op *op = arg;

	agg_clear_in(&op->ao_s->dts_agg[arch_cpu_id()], op);
}

void dtrace_agg_clear(dtrace_state_t *s, uint32_t aggid)
{
	struct agg_op op = { s, aggid, NULL, 0 };

	xcall_all(agg_clear_local, &op);
	if (s->dts_aggkept.dta_base != NULL)
		agg_clear_in(&s->dts_aggkept, &op);
}

/* ---- draining into the kept table (thread context, the consumer's) ---- */

#define AGG_KEPT_MIN (64UL << 10)
#define AGG_KEPT_MAX (256UL << 20)             /* beyond: the CPUs' buffers keep it (and drop) */

/*
 * dtrace_agg_merge: add the values from into to, as aggregating function
 * ag's: the least, the greatest, the 128-bit sum of squares carried, or
 * plain sums (count, sum, avg's pair, every histogram bucket).  The
 * consumer merges the CPUs' snapshots with it too.
 */
void dtrace_agg_merge(const dt_aggdesc *ag, int64_t *to, const int64_t *from, uint32_t n)
{
	if (ag->ag_func == DT_AGG_MIN) {
		to[0] = MIN(to[0], from[0]);
	} else if (ag->ag_func == DT_AGG_MAX) {
		to[0] = MAX(to[0], from[0]);
	} else if (ag->ag_func == DT_AGG_STDDEV) {
		uint64_t lo = (uint64_t)to[2] + (uint64_t)from[2];
		to[3] += from[3] + (lo < (uint64_t)to[2]);   /* the 128-bit sum of squares */
		to[2] = (int64_t)lo;
		to[0] += from[0];
		to[1] += from[1];
	} else {
		for (uint32_t i = 0; i < n; i++)
			to[i] += from[i];
	}
}

/* kept_merge: entry e into the kept table k; false if k is full. */
static bool kept_merge(dtrace_state_t *s, dtrace_aggbuf_t *k, const agg_entry_t *e)
{
	const struct dtrace_aggshape *shape = &s->dts_aggshape[e->ae_aggid];
	const uint8_t *key = (const uint8_t *)(e + 1);
	uint32_t bucket;

	if (shape->das_keylen != e->ae_keylen || shape->das_nvals != e->ae_nvals)
		return true;                            /* not an entry of this program: skip */
	int64_t *v = dtrace_agg_find(k, shape, e->ae_keylen ? key : NULL, &bucket);
	if (v == NULL)
		v = dtrace_agg_insert(k, shape, e->ae_keylen ? key : NULL, bucket);
	if (v == NULL)
		return false;
	dtrace_agg_merge(shape->das_desc, v, (const int64_t *)(key + e->ae_keylen), e->ae_nvals);
	return true;
}

/* kept_merge_all: every live entry of the bytes at base (used long) into k; false if k filled. */
static bool kept_merge_all(dtrace_state_t *s, dtrace_aggbuf_t *k, const uint8_t *base, uint64_t used)
{
	for (uint64_t off = 0; off < used;) {
		const agg_entry_t *e = (const agg_entry_t *)(base + off);
		if (e->ae_aggid < s->dts_prog->dp_naggs && !kept_merge(s, k, e))
			return false;
		off += sizeof(*e) + e->ae_keylen + e->ae_nvals * sizeof(int64_t);
	}
	return true;
}

/* kept_room: make the kept table able to take need more bytes (grown by rehashing); false if not. */
static bool kept_room(dtrace_state_t *s, uint64_t need)
{
	dtrace_aggbuf_t *k = &s->dts_aggkept, n = { 0 };
	uint64_t size = MAX(k->dta_size, AGG_KEPT_MIN);

	if (k->dta_base != NULL && k->dta_used + need <= k->dta_size)
		return true;
	while (size < k->dta_used + need && size <= AGG_KEPT_MAX)
		size *= 2;
	if (size > AGG_KEPT_MAX || dtrace_aggbuf_alloc(&n, size) != 0) {
		dtrace_aggbuf_free(&n);
		return false;
	}
	if (k->dta_base != NULL && !kept_merge_all(s, &n, k->dta_base, k->dta_used)) {
		dtrace_aggbuf_free(&n);
		return false;
	}
	dtrace_aggbuf_free(k);
	*k = n;
	return true;
}

struct agg_take {
	dtrace_aggbuf_t *at_buf;
	uint8_t *at_to;
	uint64_t at_room;                           /* take nothing if more is used */
	uint64_t at_used;                           /* out: bytes taken */
};

/* agg_take_local: on the buffer's CPU, interrupts off: copy it out and empty it. */
static void agg_take_local(void *arg)
{
	struct agg_take *t = arg;
	dtrace_aggbuf_t *a = t->at_buf;

	t->at_used = 0;
	if (a->dta_used == 0 || a->dta_used > t->at_room)
		return;
	memcpy(t->at_to, a->dta_base, a->dta_used);
	t->at_used = a->dta_used;
	memset(a->dta_bucket, 0, a->dta_nbuckets * sizeof(*a->dta_bucket));
	memset(a->dta_nokey, 0, sizeof(a->dta_nokey));
	a->dta_used = 0;
}

int dtrace_agg_drain(dtrace_state_t *s)
{
	if (s->dts_prog == NULL || s->dts_prog->dp_naggs == 0 || s->dts_aggshape == NULL)
		return 0;
	uint8_t *stage = kmalloc(MAX(s->dts_opts.dov_aggsize, 8));
	if (stage == NULL)
		return DTRACE_ENOMEM;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		dtrace_aggbuf_t *a = &s->dts_agg[cpu];
		uint64_t used = __atomic_load_n(&a->dta_used, __ATOMIC_ACQUIRE);
		if (used == 0 || !kept_room(s, used + used / 4 + 4096))
			continue;                           /* empty, or no memory: it stays there */
		dtrace_aggbuf_t *k = &s->dts_aggkept;
		struct agg_take t = { a, stage, MIN(k->dta_size - k->dta_used, a->dta_size), 0 };
		xcall(cpu, agg_take_local, &t);
		kept_merge_all(s, &s->dts_aggkept, stage, t.at_used);   /* room was made for it all */
	}
	kfree(stage);
	return 0;
}

void dtrace_agg_kept_free(dtrace_state_t *s)
{
	dtrace_aggbuf_free(&s->dts_aggkept);
	memset(&s->dts_aggkept, 0, sizeof(s->dts_aggkept));
}
