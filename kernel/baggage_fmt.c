/*
 * baggage_fmt.c - the baggage wire format: validate, pack, merge, look up.
 *
 * The layout and the semantics are drawn in kernel/baggage.h.  This file is
 * pure: no locks, no allocation, no thread, so it runs in probe context, in
 * the kernel's hand-offs and on the host (tests/unit/kernel_baggage_test.c,
 * tests/fuzz/baggage_fuzz.c).  Order: reading entries (one parser, used by
 * the validator and by everything else), then packing, merging and lookup.
 *
 * Invariant: a blob this file writes is always well formed; its length
 * never exceeds BAGGAGE_MAX.  Functions other than bag_validate trust their
 * blob (the kernel's own, or validated): they still never index past
 * BAGGAGE_MAX, so even a corrupted blob cannot make them read out of bounds.
 *
 * Tests: tests/unit/kernel_baggage_test.c; make baggage-fuzz
 *        (tests/fuzz/baggage_fuzz.c)
 */
#include "kernel/baggage.h"
#include "kernel/klib.h"

/* One entry as parsed: where it is and what it holds. */
struct bag_entry {
	const uint8_t *be_key;
	size_t be_klen;
	size_t be_size;              /* bytes of the whole entry */
	struct bag_value be_val;
};

static uint64_t le64_get(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void le64_put(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* bag_nul: the first NUL in s[0..n), or n. */
static size_t bag_nul(const uint8_t *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] != 0)
		i++;
	return i;
}

static bool bag_key_char(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool bag_key_ok(const uint8_t *k, size_t klen)
{
	if (klen == 0 || klen > BAGGAGE_KEY_MAX)
		return false;
	for (size_t i = 0; i < klen; i++)
		if (!bag_key_char(k[i]))
			return false;
	return true;
}

static size_t bag_entry_value(const uint8_t *p, size_t left, size_t klen, struct bag_entry *e,
                              bool check);

/*
 * bag_entry_parse: the entry at p, with end - p bytes left; its size, or 0
 * if it is not a well-formed entry.
 */
static size_t bag_entry_parse(const uint8_t *p, const uint8_t *end, struct bag_entry *e)
{
	size_t left = (size_t)(end - p), klen;

	if (left < 2)
		return 0;
	klen = p[0];
	if (klen + 2 > left || !bag_key_ok(p + 1, klen))
		return 0;
	return bag_entry_value(p, left, klen, e, true);
}

/*
 * bag_entry_walk: bag_entry_parse for a blob already known to be well
 * formed (the kernel's own): bounds are still checked, so a corrupted blob
 * is cut short, never read past, but keys and strings are not checked again.
 */
static size_t bag_entry_walk(const uint8_t *p, const uint8_t *end, struct bag_entry *e)
{
	size_t left = (size_t)(end - p), klen;

	if (left < 2)
		return 0;
	klen = p[0];
	if (klen == 0 || klen + 2 > left)
		return 0;
	return bag_entry_value(p, left, klen, e, false);
}

/* bag_entry_value: the rest of the entry at p (left bytes) after its klen-byte key. */
static size_t bag_entry_value(const uint8_t *p, size_t left, size_t klen, struct bag_entry *e, bool check)
{
	size_t at;

	at = 1 + klen;
	e->be_key = p + 1;
	e->be_klen = klen;
	e->be_val.bv_type = (enum bag_type)p[at++];
	switch (e->be_val.bv_type) {
	case BAG_T_INT:
	case BAG_T_SUM:
		if (at + 8 > left)
			return 0;
		e->be_val.bv_int = le64_get(p + at);
		e->be_val.bv_str = NULL;
		e->be_val.bv_len = 0;
		at += 8;
		break;
	case BAG_T_STR:
		if (at + 1 > left || p[at] > BAGGAGE_STR_MAX || at + 1 + p[at] > left)
			return 0;
		e->be_val.bv_len = p[at];
		e->be_val.bv_str = p + at + 1;
		e->be_val.bv_int = 0;
		if (check && bag_nul(e->be_val.bv_str, e->be_val.bv_len) != e->be_val.bv_len)
			return 0;
		at += 1 + e->be_val.bv_len;
		break;
	default:
		return 0;
	}
	e->be_size = at;
	return at;
}

int bag_validate(const uint8_t *buf, size_t len)
{
	const uint8_t *p, *end;
	struct bag_entry e;

	if (len == 0)
		return 0;
	if (len < BAGGAGE_HDR || len > BAGGAGE_MAX || buf[0] != BAGGAGE_MAGIC ||
	    (buf[1] & ~BAG_F_OVERFLOW) != 0 || (size_t)(buf[2] | buf[3] << 8) != len)
		return BAG_E_MALFORMED;
	end = buf + len;
	for (p = buf + BAGGAGE_HDR; p < end; p += e.be_size)
		if (bag_entry_parse(p, end, &e) == 0)
			return BAG_E_MALFORMED;
	return 0;
}

/* --- the blob's header ---------------------------------------------------- */

size_t bag_len(const struct baggage *b)
{
	size_t len = (size_t)(b->b_bytes[2] | b->b_bytes[3] << 8);
	return b->b_bytes[0] == BAGGAGE_MAGIC && len <= BAGGAGE_MAX ? len : 0;
}

static void bag_len_set(struct baggage *b, size_t len)
{
	b->b_bytes[0] = BAGGAGE_MAGIC;
	b->b_bytes[2] = (uint8_t)len;
	b->b_bytes[3] = (uint8_t)(len >> 8);
}

/* bag_used: the bytes in use, header included, making an empty blob real. */
static size_t bag_used(struct baggage *b)
{
	size_t len = bag_len(b);
	if (len < BAGGAGE_HDR) {
		b->b_bytes[1] = 0;
		bag_len_set(b, BAGGAGE_HDR);
		len = BAGGAGE_HDR;
	}
	return len;
}

void bag_clear(struct baggage *b)
{
	memset(b->b_bytes, 0, BAGGAGE_HDR);
}

bool bag_overflowed(const struct baggage *b)
{
	return bag_len(b) != 0 && (b->b_bytes[1] & BAG_F_OVERFLOW) != 0;
}

static int bag_overflow(struct baggage *b)
{
	bag_used(b);
	b->b_bytes[1] |= BAG_F_OVERFLOW;
	return BAG_E_FULL;
}

/* BAG_FOREACH: each entry of a (trusted) blob; stops at the first that does not parse. */
#define BAG_FOREACH(b, p, end, e) \
	for (p = (b)->b_bytes + BAGGAGE_HDR, end = (b)->b_bytes + bag_len(b); \
	     p < end && bag_entry_walk(p, end, &(e)) != 0; p += (e).be_size)

int bag_count_entries(const struct baggage *b)
{
	const uint8_t *p, *end;
	struct bag_entry e;
	int n = 0;

	BAG_FOREACH(b, p, end, e)
		n++;
	return n;
}

/* --- packing -------------------------------------------------------------- */

/* bag_append: add one entry (already encoded, size bytes) or mark the overflow. */
static int bag_append(struct baggage *b, const uint8_t *ent, size_t size)
{
	size_t len = bag_used(b);

	if (len + size > BAGGAGE_MAX)
		return bag_overflow(b);
	memcpy(b->b_bytes + len, ent, size);
	bag_len_set(b, len + size);
	return 0;
}

/* bag_encode_head: klen, key, type into ent; returns the bytes written, 0 if the key is bad. */
static size_t bag_encode_head(uint8_t *ent, const char *key, size_t klen, enum bag_type t)
{
	if (!bag_key_ok((const uint8_t *)key, klen))
		return 0;
	ent[0] = (uint8_t)klen;
	memcpy(ent + 1, key, klen);
	ent[1 + klen] = (uint8_t)t;
	return klen + 2;
}

static int bag_pack_u64(struct baggage *b, const char *key, size_t klen, enum bag_type t, uint64_t v)
{
	uint8_t ent[BAGGAGE_KEY_MAX + 2 + 8];
	size_t at = bag_encode_head(ent, key, klen, t);

	if (at == 0)
		return BAG_E_INVAL;
	le64_put(ent + at, v);
	return bag_append(b, ent, at + 8);
}

int bag_pack_int(struct baggage *b, const char *key, size_t klen, uint64_t v)
{
	return bag_pack_u64(b, key, klen, BAG_T_INT, v);
}

int bag_pack_str(struct baggage *b, const char *key, size_t klen, const char *s, size_t slen)
{
	uint8_t ent[BAGGAGE_KEY_MAX + 3 + BAGGAGE_STR_MAX];
	size_t at = bag_encode_head(ent, key, klen, BAG_T_STR);

	if (at == 0)
		return BAG_E_INVAL;
	slen = bag_nul((const uint8_t *)s, MIN(slen, (size_t)BAGGAGE_STR_MAX));
	ent[at] = (uint8_t)slen;
	memcpy(ent + at + 1, s, slen);
	return bag_append(b, ent, at + 1 + slen);
}

/* bag_find_sum: the value bytes of key's BAG_T_SUM entry, or NULL. */
static uint8_t *bag_find_sum(struct baggage *b, const uint8_t *key, size_t klen)
{
	const uint8_t *p, *end;
	struct bag_entry e;

	BAG_FOREACH(b, p, end, e)
		if (e.be_val.bv_type == BAG_T_SUM && e.be_klen == klen &&
		    memcmp(e.be_key, key, klen) == 0)
			return (uint8_t *)p + e.be_size - 8;
	return NULL;
}

int bag_add_sum(struct baggage *b, const char *key, size_t klen, uint64_t v)
{
	uint8_t *val;

	if (!bag_key_ok((const uint8_t *)key, klen))
		return BAG_E_INVAL;
	val = bag_find_sum(b, (const uint8_t *)key, klen);
	if (val == NULL)
		return bag_pack_u64(b, key, klen, BAG_T_SUM, v);
	le64_put(val, le64_get(val) + v);
	return 0;
}

/* --- merging -------------------------------------------------------------- */

/* bag_occurrences: how many entries of [p, end) are byte-identical to ent. */
static int bag_occurrences(const uint8_t *p, const uint8_t *end, const uint8_t *ent, size_t size)
{
	struct bag_entry e;
	int n = 0;

	for (; p < end && bag_entry_walk(p, end, &e) != 0; p += e.be_size)
		if (e.be_size == size && memcmp(p, ent, size) == 0)
			n++;
	return n;
}

/* bag_merge_sum: fold a BAG_T_SUM entry of src into dst's (the larger wins); false if dst has none. */
static bool bag_merge_sum(struct baggage *dst, const struct bag_entry *e)
{
	uint8_t *val = bag_find_sum(dst, e->be_key, e->be_klen);

	if (val == NULL)
		return false;
	if (e->be_val.bv_int > le64_get(val))
		le64_put(val, e->be_val.bv_int);
	return true;
}

/*
 * bag_merge_prefix: the common case of a join along one request's path, one
 * blob being the other's first entries: then the union is the longer one.
 * True when that settled it.
 */
static bool bag_merge_prefix(struct baggage *dst, const struct baggage *src)
{
	size_t sl = bag_len(src), dl = bag_used(dst);

	if (dl >= sl)
		return memcmp(dst->b_bytes + BAGGAGE_HDR, src->b_bytes + BAGGAGE_HDR,
		              sl - BAGGAGE_HDR) == 0;
	if (memcmp(dst->b_bytes + BAGGAGE_HDR, src->b_bytes + BAGGAGE_HDR, dl - BAGGAGE_HDR) != 0)
		return false;
	memcpy(dst->b_bytes + dl, src->b_bytes + dl, sl - dl);   /* whole entries: src's own */
	bag_len_set(dst, sl);
	return true;
}

int bag_merge(struct baggage *dst, const struct baggage *src)
{
	const uint8_t *p, *end, *base = src->b_bytes + BAGGAGE_HDR;
	struct bag_entry e;
	int rc = 0;
	size_t dlen;

	if (bag_len(src) < BAGGAGE_HDR || dst == src)
		return 0;
	if (bag_overflowed(src))
		bag_overflow(dst);
	if (bag_merge_prefix(dst, src))
		return 0;
	BAG_FOREACH(src, p, end, e) {
		if (e.be_val.bv_type == BAG_T_SUM && bag_merge_sum(dst, &e))
			continue;
		dlen = bag_used(dst);
		/* keep it if dst holds fewer copies than src has up to here */
		if (bag_occurrences(dst->b_bytes + BAGGAGE_HDR, dst->b_bytes + dlen, p, e.be_size) >
		    bag_occurrences(base, p, p, e.be_size))
			continue;
		if (bag_append(dst, p, e.be_size) != 0)
			rc = BAG_E_FULL;
	}
	return rc;
}

int bag_merge_wire(struct baggage *dst, const uint8_t *buf, size_t len)
{
	struct baggage src;

	if (bag_validate(buf, len) != 0)
		return BAG_E_MALFORMED;
	if (len == 0)
		return 0;
	memcpy(src.b_bytes, buf, len);
	return bag_merge(dst, &src);
}

/* --- lookup --------------------------------------------------------------- */

int bag_lookup(const struct baggage *b, const char *key, size_t klen, int n, struct bag_value *out)
{
	const uint8_t *p, *end;
	struct bag_entry e;
	int count = 0;

	BAG_FOREACH(b, p, end, e) {
		if (e.be_klen != klen || memcmp(e.be_key, key, klen) != 0)
			continue;
		if (count == n || n < 0)
			*out = e.be_val;
		count++;
	}
	return count;
}
