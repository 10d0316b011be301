/*
 * baggage_selftest.c - in-kernel self-tests of causal baggage: a thread's
 * baggage exported and imported as a link would carry it, malformed bytes
 * refused without a change, and the hand-off sites patched on and off
 * (kernel/baggage.c, kernel/baggage_site.h; docs/causal.md).
 */
#include "arch/arch.h"
#include "kernel/baggage.h"
#include "kernel/baggage_site.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"

SELFTEST(baggage_export_import_roundtrip)
{
	struct thread *a = kzalloc(sizeof(*a)), *b = kzalloc(sizeof(*b));
	uint8_t wire[BAGGAGE_MAX];
	struct bag_value v;
	size_t n;

	ST_ASSERT(a != NULL && b != NULL);
	ST_ASSERT(baggage_export(a, wire, sizeof(wire)) == 0);      /* none: 0 bytes */
	bag_pack_str(&a->t_bag, "client", 6, "sh", 2);
	bag_pack_int(&a->t_bag, "req", 3, 99);
	n = baggage_export(a, wire, sizeof(wire));
	ST_ASSERT(n == bag_len(&a->t_bag) && n > BAGGAGE_HDR);
	ST_ASSERT(baggage_export(a, wire, n - 1) == 0);             /* does not fit: nothing */
	n = baggage_export(a, wire, sizeof(wire));
	ST_ASSERT(baggage_import(b, wire, n) == 0);
	ST_ASSERT(bag_lookup(&b->t_bag, "req", 3, 0, &v) == 1 && v.bv_int == 99);
	ST_ASSERT(baggage_import(b, wire, n) == 0);                 /* the same again adds nothing */
	ST_ASSERT(bag_count_entries(&b->t_bag) == 2);
	wire[BAGGAGE_HDR + 1] = '-';                                /* a bad key character */
	ST_ASSERT(baggage_import(b, wire, n) == BAG_E_MALFORMED);
	ST_ASSERT(baggage_import(b, wire, BAGGAGE_MAX + 1) == BAG_E_MALFORMED);
	ST_ASSERT(bag_count_entries(&b->t_bag) == 2);
	kfree(a);
	kfree(b);
}

#ifdef ARCH_BRANCH_SITE

static bool sites_all(uint8_t op)
{
	for (const struct baggage_site *s = __start_baggage_sites; s < __stop_baggage_sites; s++)
		if (*(const uint8_t *)s->bs_addr != op)
			return false;
	return true;
}

SELFTEST(baggage_sites_patch_on_and_off)
{
	ST_ASSERT(__stop_baggage_sites - __start_baggage_sites >= 7);
	ST_ASSERT(!baggage_sites_on && sites_all(ARCH_BRANCH_SITE_OFF));
	ST_ASSERT(baggage_sites_set(true) >= 7);
	ST_ASSERT(sites_all(ARCH_BRANCH_SITE_ON));
	baggage_sites_set(false);
	ST_ASSERT(sites_all(ARCH_BRANCH_SITE_OFF));
}
#endif
