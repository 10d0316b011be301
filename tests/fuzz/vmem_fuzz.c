/*
 * tests/fuzz/vmem_fuzz.c: libFuzzer target for the kernel's address-space
 * arena (kernel/vmem.c), which every large kernel allocation goes through.
 *
 * Each input is a program of operations on one fresh arena: give it a span,
 * allocate, free what was allocated, free what was not (a wrong size, an
 * address inside a block, an address never handed out), and make the tag
 * supplier run dry or come back.  A model beside the arena knows the spans
 * and the live blocks, and after every operation the arena is checked
 * against it and against its own rules, read from its boundary tags:
 *
 * - the tags are in address order, each span's segments tile it exactly,
 *   and no two free segments are neighbours inside one span (freeing
 *   always merges);
 * - every free segment is on the list of its size, and the bitmap says
 *   which lists are not empty; every allocated segment is in the hash;
 * - the allocated segments are exactly the model's live blocks, and the
 *   statistics (bytes in spans, bytes in use, segments) agree;
 * - an allocation fails only when no free segment is large enough or the
 *   tag supplier refused; a failed call changes nothing; a bad free
 *   returns false and changes nothing.
 *
 * At the end everything is freed and each span must be one free segment.
 * A broken rule is reported and aborts (a finding).
 *
 * Operations, one byte each plus their operands (a short input ends the
 * program): see step().  Seeds: none needed, libFuzzer starts from nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/vmem.h"

#define Q        4096ull
#define MAXSPANS 8
#define MAXLIVE  256

struct block { uint64_t addr, size; };

static struct {
	struct block spans[MAXSPANS];
	int nspans;
	struct block live[MAXLIVE];
	int nlive;
	bool tags_dry;               /* the supplier refuses */
	bool refused;                /* it refused during this operation */
} m;

static struct vmem vm;
static void *tag_pages[4096];
static int ntag_pages;

static void *tag_page(void)
{
	if (m.tags_dry || ntag_pages == (int)(sizeof(tag_pages) / sizeof(tag_pages[0]))) {
		m.refused = true;
		return NULL;
	}
	void *p = aligned_alloc(4096, VMEM_TAG_PAGE);
	tag_pages[ntag_pages++] = p;
	return p;
}

static void fail(const char *why, uint64_t a, uint64_t b)
{
	fprintf(stderr, "vmem_fuzz: %s (0x%llx, 0x%llx)\n", why, (unsigned long long)a,
	        (unsigned long long)b);
	abort();
}

/* ---- the arena's own rules, read from its tags ---- */

static bool on_list(const struct vmem_seg *s, const struct vmem_seg *head)
{
	for (; head != NULL; head = head->vs_knext)
		if (head == s)
			return true;
	return false;
}

static bool in_hash(const struct vmem_seg *s)
{
	for (int b = 0; b < VMEM_HASH; b++)
		if (on_list(s, vm.vm_hash[b]))
			return true;
	return false;
}

static int live_index(uint64_t addr)
{
	for (int i = 0; i < m.nlive; i++)
		if (m.live[i].addr == addr)
			return i;
	return -1;
}

/* One span from its tag on: its segments must tile it. Returns the tag after it. */
static const struct vmem_seg *check_span(const struct vmem_seg *span, uint64_t *largest,
                                         int *nalloc, uint64_t *inuse, uint64_t *segs)
{
	uint64_t at = span->vs_start, end = span->vs_start + span->vs_size;
	const struct vmem_seg *s = span->vs_anext;
	bool prev_free = false;

	for (; s != &vm.vm_seg0 && s->vs_type != VMEM_SPAN; s = s->vs_anext) {
		if (s->vs_start != at || s->vs_size == 0 || s->vs_size % Q != 0)
			fail("segments do not tile their span", s->vs_start, at);
		at += s->vs_size;
		(*segs)++;
		if (s->vs_type == VMEM_FREE) {
			if (prev_free)
				fail("two free neighbours were not merged", s->vs_start, s->vs_size);
			int i = 63 - __builtin_clzll(s->vs_size);
			if (!on_list(s, vm.vm_freelist[i]) || !(vm.vm_freemap & (1ull << i)))
				fail("a free segment is not on its list", s->vs_start, s->vs_size);
			if (s->vs_size > *largest)
				*largest = s->vs_size;
		} else {
			int k = live_index(s->vs_start);
			if (k < 0 || m.live[k].size != s->vs_size || !in_hash(s))
				fail("an allocated segment the model does not have", s->vs_start, s->vs_size);
			(*nalloc)++;
			*inuse += s->vs_size;
		}
		prev_free = s->vs_type == VMEM_FREE;
	}
	if (at != end)
		fail("a span's segments stop short", at, end);
	return s;
}

static uint64_t check_arena(void)
{
	uint64_t largest = 0, inuse = 0, total = 0, segs = 0;
	int nalloc = 0, nspans = 0;

	for (const struct vmem_seg *s = vm.vm_seg0.vs_anext; s != &vm.vm_seg0; nspans++) {
		if (s->vs_type != VMEM_SPAN)
			fail("a segment outside any span", s->vs_start, s->vs_size);
		if (s->vs_anext->vs_aprev != s || s->vs_aprev->vs_anext != s)
			fail("the address list is not doubly linked", s->vs_start, 0);
		total += s->vs_size;
		s = check_span(s, &largest, &nalloc, &inuse, &segs);
	}
	for (int i = 0; i < VMEM_FREELISTS; i++)
		if ((vm.vm_freelist[i] != NULL) != !!(vm.vm_freemap & (1ull << i)))
			fail("the free-list bitmap is wrong", (uint64_t)i, vm.vm_freemap);
	if (nspans != m.nspans || nalloc != m.nlive)
		fail("the arena's spans or blocks differ from the model", (uint64_t)nspans,
		     (uint64_t)nalloc);
	if (vm.vm_stats.vst_total != total || vm.vm_stats.vst_inuse != inuse ||
	    vm.vm_stats.vst_segs != segs)
		fail("the statistics disagree", vm.vm_stats.vst_inuse, inuse);
	if (vmem_largest_free(&vm) != largest)
		fail("vmem_largest_free is wrong", vmem_largest_free(&vm), largest);
	return largest;
}

/* ---- the operations ---- */

static uint64_t take(const uint8_t **p, const uint8_t *end, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n && *p < end; i++)
		v = v << 8 | *(*p)++;
	return v;
}

/* A span: in a slot of its own 1 TiB, or just after the last one (spans never merge). */
static void op_add(uint64_t slot, uint64_t quanta)
{
	uint64_t size = (quanta % 4096 + 1) * Q;
	uint64_t base = (slot & 0x80) != 0 && m.nspans > 0
		? m.spans[m.nspans - 1].addr + m.spans[m.nspans - 1].size
		: ((slot % 64) + 1) << 40;

	if (m.nspans == MAXSPANS)
		return;
	for (int i = 0; i < m.nspans; i++)
		if (base < m.spans[i].addr + m.spans[i].size && m.spans[i].addr < base + size)
			return;                      /* the caller never overlaps spans */
	if (vmem_add(&vm, base, size))
		m.spans[m.nspans++] = (struct block){ base, size };
	else if (!m.refused)
		fail("vmem_add failed with tags to spare", base, size);
}

static void op_alloc(uint64_t arg, uint64_t largest)
{
	uint64_t bytes = (arg & 0x8000) != 0 ? (arg & 0x7fff) + 1 : ((arg & 0x3ff) + 1) * Q;
	uint64_t size = (bytes + Q - 1) & ~(Q - 1);
	if (m.nlive == MAXLIVE)
		return;                              /* the model is full: no allocation */
	uint64_t a = vmem_alloc(&vm, bytes);

	if (a == 0) {
		if (size <= largest && !m.refused)
			fail("an allocation failed that a free segment would hold", size, largest);
		return;
	}
	if (size > largest || a % Q != 0)
		fail("an allocation larger than any free segment, or unaligned", a, size);
	bool inside = false;
	for (int i = 0; i < m.nspans; i++)
		inside |= a >= m.spans[i].addr && a + size <= m.spans[i].addr + m.spans[i].size;
	for (int i = 0; i < m.nlive; i++)
		if (a < m.live[i].addr + m.live[i].size && m.live[i].addr < a + size)
			fail("two blocks overlap", a, m.live[i].addr);
	if (!inside)
		fail("a block outside every span", a, size);
	m.live[m.nlive++] = (struct block){ a, size };
}

static void op_free(uint64_t pick)
{
	if (m.nlive == 0)
		return;
	int i = (int)(pick % (uint64_t)m.nlive);
	/* the byte size vmem_alloc was asked for may be smaller: give a sub-quantum size sometimes */
	uint64_t size = (pick & 0x100) != 0 ? m.live[i].size - Q + 1 : m.live[i].size;
	if (!vmem_free(&vm, m.live[i].addr, size))
		fail("a block could not be freed", m.live[i].addr, size);
	m.live[i] = m.live[--m.nlive];
}

static void op_bad_free(uint64_t kind)
{
	uint64_t addr, size;

	if (m.nlive > 0 && (kind & 3) != 3) {
		const struct block *b = &m.live[(kind >> 2) % (uint64_t)m.nlive];
		addr = (kind & 3) == 0 ? b->addr : b->addr + Q * ((kind & 3) == 1 ? 1 : 0);
		size = (kind & 3) == 0 ? b->size + Q : b->size;
		if ((kind & 3) == 2)
			addr = b->addr + 1;
		if (addr != b->addr && live_index(addr) >= 0)
			return;                      /* that is another block's start */
	} else {
		addr = (kind % 64 + 1) << 40 | (kind & 0xff000);
		size = Q;
		if (live_index(addr) >= 0)
			return;
	}
	if (vmem_free(&vm, addr, size))
		fail("a free of what was not allocated succeeded", addr, size);
}

static void step(const uint8_t **p, const uint8_t *end)
{
	uint64_t largest = check_arena();
	uint8_t op = (uint8_t)take(p, end, 1);

	m.refused = false;
	switch (op % 6) {
	case 0: { uint64_t slot = take(p, end, 1); op_add(slot, take(p, end, 2)); break; }
	case 1: case 2: op_alloc(take(p, end, 2), largest); break;
	case 3: op_free(take(p, end, 2)); break;
	case 4: op_bad_free(take(p, end, 3)); break;
	default: m.tags_dry = !m.tags_dry; break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;

	memset(&m, 0, sizeof(m));
	vmem_init(&vm, "fuzz", Q, tag_page);
	while (p < end)
		step(&p, end);
	check_arena();
	m.tags_dry = false;
	while (m.nlive > 0)
		op_free(0);
	check_arena();
	for (const struct vmem_seg *s = vm.vm_seg0.vs_anext; s != &vm.vm_seg0; s = s->vs_anext)
		if (s->vs_type == VMEM_SPAN &&
		    (s->vs_anext->vs_type != VMEM_FREE || s->vs_anext->vs_size != s->vs_size))
			fail("a span is not one free segment once all is freed", s->vs_start, s->vs_size);
	while (ntag_pages > 0)
		free(tag_pages[--ntag_pages]);
	return 0;
}
