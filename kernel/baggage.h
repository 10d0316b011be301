/*
 * baggage.h - causal baggage: a small bounded blob of (key, value) pairs
 * that follows a request across threads, processes and machines (Pivot
 * Tracing, SOSP 2015; docs/causal.md).
 *
 * D's `bag->client = execname;` packs a pair into the current thread's
 * baggage; every hand-off the kernel makes on the request's behalf (thread
 * creation, fork, a wake-up, a pipe write to the read that consumes it, a
 * work-queue item, a message on a link) carries the baggage to the thread
 * that continues the work, and a later probe there reads `bag->client`.
 *
 * The blob is kept in its wire form, the same bytes in memory and on a link,
 * little-endian whatever the machine:
 *
 *   +------+-------+---------+------------------------------------+
 *   | 0xB1 | flags | len:u16 | entry, entry, ...                  |
 *   +------+-------+---------+------------------------------------+
 *     [0]    [1]     [2..3]    len counts the whole blob, header too
 *
 *   entry:  klen:u8 | key[klen] | type:u8 | value
 *           key: 1..BAGGAGE_KEY_MAX bytes of [A-Za-z0-9_] (a D identifier)
 *           type BAG_T_INT: value is 8 bytes, little-endian
 *           type BAG_T_STR: value is slen:u8 then slen bytes (no NUL, no
 *                           NUL inside, at most BAGGAGE_STR_MAX)
 *           type BAG_T_SUM: 8 bytes like BAG_T_INT; a partial sum packed by
 *                           `bag->k += e` (aggregation pushed into the
 *                           baggage: one entry however often it is added to)
 *
 *   flags:  BAG_F_OVERFLOW - something did not fit and was left out (the
 *           overflow marker); it sticks to the blob and travels with it.
 *
 * Semantics (Pivot Tracing's): a key packed more than once along a path
 * holds all its values, in the order they were packed; first() is FIRST,
 * last() is MOSTRECENT.  Merging two baggages (a join) is a multiset union
 * that keeps the order: the entries of the first, then each entry of the
 * second that the first does not already hold as often; so a request that
 * goes back and forth between two threads does not grow.  Two BAG_T_SUM
 * entries of one key merge to the larger (the longer history of one path).
 *
 * Invariants: BAGGAGE_MAX is a hard cap; nothing here allocates; a pack or
 * merge that does not fit trims (whole entries, never part of one), sets the
 * overflow marker and returns BAG_E_FULL, which the caller counts as a drop.
 * Every function here may run in probe context and on the host (tests/unit,
 * tests/fuzz); bag_validate accepts exactly the well-formed blobs, and the
 * other functions assume a blob that is well formed (empty, or validated,
 * or built by them).
 */
#ifndef SONDE_BAGGAGE_H
#define SONDE_BAGGAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BAGGAGE_MAX      256          /* hard cap in bytes, header included */
#define BAGGAGE_HDR      4
#define BAGGAGE_KEY_MAX  32
#define BAGGAGE_STR_MAX  64
#define BAGGAGE_MAGIC    0xB1

#define BAG_F_OVERFLOW   0x01

enum bag_type {
	BAG_T_INT = 1,
	BAG_T_STR = 2,
	BAG_T_SUM = 3,
};

/* Errors (negative). */
#define BAG_E_FULL      (-1)          /* trimmed: the overflow marker is set */
#define BAG_E_MALFORMED (-2)          /* bytes that are not a baggage */
#define BAG_E_INVAL     (-3)          /* a bad key or value from the caller */

/* One blob: its wire bytes.  An all-zero struct is the empty baggage. */
struct baggage {
	uint8_t b_bytes[BAGGAGE_MAX];
};

/* A decoded value, pointing into a blob (valid while the blob is unchanged). */
struct bag_value {
	enum bag_type bv_type;
	uint64_t bv_int;             /* BAG_T_INT, BAG_T_SUM */
	const uint8_t *bv_str;       /* BAG_T_STR: bv_len bytes, not terminated */
	size_t bv_len;
};

/* --- the format (kernel/baggage_fmt.c): any context, host too ---------- */

void bag_clear(struct baggage *b);
size_t bag_len(const struct baggage *b);        /* wire bytes; 0 when empty */
bool bag_overflowed(const struct baggage *b);
int bag_count_entries(const struct baggage *b);

/*
 * bag_validate: 0 if buf[0..len) is a well-formed blob (len may be 0: the
 * empty baggage), else BAG_E_MALFORMED.  Reads nothing past buf + len.
 */
int bag_validate(const uint8_t *buf, size_t len);

/*
 * bag_pack_int / bag_pack_str / bag_add_sum: append (key, value) to b.
 * key is klen bytes (a D identifier); a string longer than BAGGAGE_STR_MAX
 * is cut there.  bag_add_sum adds v to the key's BAG_T_SUM entry, creating
 * it.  0, BAG_E_FULL (nothing added, marker set) or BAG_E_INVAL.
 */
int bag_pack_int(struct baggage *b, const char *key, size_t klen, uint64_t v);
int bag_pack_str(struct baggage *b, const char *key, size_t klen, const char *s, size_t slen);
int bag_add_sum(struct baggage *b, const char *key, size_t klen, uint64_t v);

/*
 * bag_merge: dst := dst joined with src (the multiset union above); src
 * must be well formed.  0, or BAG_E_FULL when entries of src were trimmed.
 */
int bag_merge(struct baggage *dst, const struct baggage *src);
/* bag_merge_wire: bag_validate then bag_merge, for untrusted bytes. */
int bag_merge_wire(struct baggage *dst, const uint8_t *buf, size_t len);

/*
 * bag_lookup: the key's values in pack order; how many there are, and the
 * n-th (0-based) in *out when n is below that.  n = -1 asks for the last.
 */
int bag_lookup(const struct baggage *b, const char *key, size_t klen, int n, struct bag_value *out);

/* --- a thread's baggage (kernel/baggage.c) ----------------------------- */

struct thread;

/*
 * baggage_export: the thread's baggage in wire form into buf (cap bytes);
 * returns the bytes written, 0 when it has none (or cap is too small).
 * Any context; t is the current thread or one that is not running.
 */
size_t baggage_export(const struct thread *t, uint8_t *buf, size_t cap);
/*
 * baggage_import: check untrusted bytes (from a link) and merge them into
 * t's baggage.  0, BAG_E_MALFORMED (t unchanged) or BAG_E_FULL (merged,
 * trimmed, counted as a drop).  Never reads past buf + len.  Any context.
 */
int baggage_import(struct thread *t, const uint8_t *buf, size_t len);

#endif
