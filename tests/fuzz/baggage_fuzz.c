/*
 * baggage_fuzz.c - libFuzzer target on the baggage decoder: the bytes a link
 * delivers, handed to bag_merge_wire (what baggage_import runs, kernel/
 * baggage.c) over a baggage that already holds something.
 *
 * Byte 0 picks what the destination holds before the merge (nothing, a
 * few entries, or a full blob); the rest is the untrusted wire.  A finding:
 * a sanitizer report; a merge that accepts and leaves a blob that does not
 * validate or exceeds BAGGAGE_MAX; a rejected input that changed the
 * destination; an accepted input whose own bytes, merged into an empty
 * baggage, do not come back validating.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/baggage.h"

static void fuzz_seed_dst(struct baggage *b, uint8_t sel)
{
	memset(b, 0, sizeof(*b));
	if (sel & 1) {
		bag_pack_str(b, "client", 6, "pingpong", 8);
		bag_pack_int(b, "req", 3, 7);
	}
	if (sel & 2)
		bag_add_sum(b, "bytes", 5, 100);
	if (sel & 4)
		while (bag_pack_int(b, "fill", 4, sel) == 0)
			;
}

static void fuzz_check(const struct baggage *b)
{
	size_t len = bag_len(b);
	struct bag_value v;

	if (len > BAGGAGE_MAX || bag_validate(b->b_bytes, len) != 0)
		abort();
	bag_lookup(b, "client", 6, -1, &v);
	bag_count_entries(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct baggage dst, before, fresh;
	int rc;

	if (size < 1)
		return 0;
	fuzz_seed_dst(&dst, data[0]);
	before = dst;
	rc = bag_merge_wire(&dst, data + 1, size - 1);
	if (rc == BAG_E_MALFORMED) {
		if (memcmp(&dst, &before, sizeof(dst)) != 0)
			abort();
		return 0;
	}
	fuzz_check(&dst);
	memset(&fresh, 0, sizeof(fresh));
	if (bag_merge_wire(&fresh, data + 1, size - 1) == BAG_E_MALFORMED)
		abort();
	fuzz_check(&fresh);
	if (bag_merge(&fresh, &dst) == BAG_E_MALFORMED)
		abort();
	fuzz_check(&fresh);
	return 0;
}
