/*
 * baggage_fuzz.c - libFuzzer target on baggage_import (kernel/baggage.c):
 * the bytes a link delivers, merged into a thread's baggage that already
 * holds something.
 *
 * Byte 0 picks what the thread holds before the import (nothing, a few
 * entries, a sum, or a full blob), and with bit 3 set asks the harness to
 * repair the wire's header (magic, flags, length), so that mutations reach
 * the entries; the rest is the untrusted wire.  A
 * finding: a sanitizer report; an import that accepts and leaves a blob
 * that does not validate or exceeds BAGGAGE_MAX; a rejected input that
 * changed the thread's baggage; an accepted input that, imported into an
 * empty thread and exported again, does not come back validating.
 * kernel/baggage.c is built as it is for the kernel, on the stubs below
 * (one CPU, never in an interrupt, the hand-off sites never patched).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/baggage.h"
#include "kernel/baggage_site.h"
#include "kernel/cpu.h"
#include "kernel/mem.h"
#include "kernel/thread.h"

/* --- what kernel/baggage.c needs of the kernel -------------------------- */

static struct thread *fuzz_self;
static struct cpu fuzz_cpu;

uint64_t arch_irq_save(void) { return 0; }
void arch_irq_restore(uint64_t flags) { (void)flags; }
struct thread *curthread(void) { return fuzz_self; }
struct cpu *curcpu(void) { return &fuzz_cpu; }
bool text_patch(void *addr, const void *bytes, size_t len) { (void)addr; (void)bytes; (void)len; return true; }
void text_patch_sync(void) { }
void panic(const char *fmt, ...) { (void)fmt; abort(); }
/* no site is ever patched here (baggage_sites_set is never called) */
const struct baggage_site __start_baggage_sites[1], __stop_baggage_sites[1];

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

/* fuzz_import: import the wire (exactly size bytes) over the baggage sel picks. */
static int fuzz_import(uint8_t sel, const uint8_t *data, size_t size)
{
	static struct thread t, fresh;
	struct baggage before;
	uint8_t wire[BAGGAGE_MAX];
	size_t n;

	fuzz_self = &t;
	fuzz_seed_dst(&t.t_bag, sel);
	before = t.t_bag;
	if (baggage_import(&t, data, size) == BAG_E_MALFORMED) {
		if (memcmp(&t.t_bag, &before, sizeof(before)) != 0)
			abort();
		return 0;
	}
	fuzz_check(&t.t_bag);
	memset(&fresh, 0, sizeof(fresh));
	if (baggage_import(&fresh, data, size) == BAG_E_MALFORMED)
		abort();
	fuzz_check(&fresh.t_bag);
	n = baggage_export(&fresh, wire, sizeof(wire));
	if (bag_validate(wire, n) != 0 || baggage_import(&t, wire, n) == BAG_E_MALFORMED)
		abort();
	fuzz_check(&t.t_bag);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size - 1;
	uint8_t *fixed;
	int r;

	if (size < 1)
		return 0;
	if (!(data[0] & 8) || n < BAGGAGE_HDR || n > BAGGAGE_MAX)
		return fuzz_import(data[0], data + 1, n);
	fixed = malloc(n);                         /* exactly n bytes: ASan sees any overread */
	if (fixed == NULL)
		return 0;
	memcpy(fixed, data + 1, n);
	fixed[0] = BAGGAGE_MAGIC;
	fixed[1] &= BAG_F_OVERFLOW;
	fixed[2] = (uint8_t)n;
	fixed[3] = (uint8_t)(n >> 8);
	r = fuzz_import(data[0], fixed, n);
	free(fixed);
	return r;
}
