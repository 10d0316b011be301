/*
 * wl_churn.c - `run churn [COUNT]`: exercise the kernel heap.
 *
 * Theory.  Each round allocates a batch of blocks of varied sizes (mostly
 * small, some a few pages), writes a pattern derived from each block's
 * index into it, checks the pattern, and frees the batch in a different
 * order from the one it was allocated in, so the allocator sees interleaved
 * sizes and out-of-order frees.  COUNT rounds, or until killed.  The call
 * chain is wl_churn_main -> churn_round -> churn_alloc_batch /
 * churn_free_batch -> churn_alloc_one -> kmalloc.
 *
 * A pattern mismatch means someone else wrote into our memory: the workload
 * reports it and exits with status 1.  kmalloc failures are counted, not
 * fatal (a churner must survive a full heap).
 *
 * Tests: self-tests wl_workloads_end_by_themselves,
 *        wl_heap_balanced_after_churn; tests/e2e/test_workloads.py
 */
#include "console/workloads/workload.h"
#include "kernel/klib.h"
#include "kernel/console.h"
#include "kernel/mem.h"
#include "kernel/thread.h"

#define CHURN_BATCH 24

struct churn_block {
	uint8_t *cb_ptr;
	size_t cb_size;
	uint8_t cb_tag;
};

struct churn {
	uint64_t ch_rng;             /* xorshift state */
	uint64_t ch_failures;        /* kmalloc returned NULL */
	bool ch_corrupt;
	struct churn_block ch_blocks[CHURN_BATCH];
};

static uint64_t churn_rand(struct churn *ch)
{
	uint64_t x = ch->ch_rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	ch->ch_rng = x;
	return x;
}

/* churn_size: 8..256 bytes most of the time, up to 4 KiB often, up to 24 KiB rarely. */
static size_t churn_size(struct churn *ch)
{
	uint64_t r = churn_rand(ch);

	switch (r % 8) {
	case 0:  return 4096 + (r >> 8) % (20 * 1024);
	case 1:
	case 2:  return 257 + (r >> 8) % 3840;
	default: return 8 + (r >> 8) % 249;
	}
}

static WL_NOINLINE bool churn_alloc_one(struct churn *ch, struct churn_block *b, uint8_t tag)
{
	b->cb_size = churn_size(ch);
	b->cb_ptr = kmalloc(b->cb_size);
	b->cb_tag = tag;
	if (b->cb_ptr == NULL) {
		ch->ch_failures++;
		return false;
	}
	memset(b->cb_ptr, tag, b->cb_size);
	return true;
}

static WL_NOINLINE void churn_alloc_batch(struct churn *ch, uint8_t round)
{
	for (int i = 0; i < CHURN_BATCH; i++)
		churn_alloc_one(ch, &ch->ch_blocks[i], (uint8_t)(round * CHURN_BATCH + i));
}

/* churn_check: is the block's pattern intact?  Only the ends and middle are sampled. */
static WL_NOINLINE bool churn_check(const struct churn_block *b)
{
	size_t n = b->cb_size;

	return b->cb_ptr[0] == b->cb_tag && b->cb_ptr[n / 2] == b->cb_tag &&
	       b->cb_ptr[n - 1] == b->cb_tag;
}

/* churn_free_batch: free every other block, then the rest (out of order). */
static WL_NOINLINE void churn_free_batch(struct churn *ch)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = pass; i < CHURN_BATCH; i += 2) {
			struct churn_block *b = &ch->ch_blocks[i];
			if (b->cb_ptr == NULL)
				continue;
			if (!churn_check(b))
				ch->ch_corrupt = true;
			kfree(b->cb_ptr);
			b->cb_ptr = NULL;
		}
	}
}

static WL_NOINLINE void churn_round(struct churn *ch, uint8_t round)
{
	churn_alloc_batch(ch, round);
	churn_free_batch(ch);
}

static int wl_churn_main(const struct wl_params *p)
{
	struct churn *ch = kzalloc(sizeof(*ch));

	if (ch == NULL)
		return 1;
	ch->ch_rng = 0x9e3779b97f4a7c15ULL;
	for (uint64_t r = 0; (!p->wp_given || r < p->wp_arg) && !wl_should_stop(0); r++) {
		churn_round(ch, (uint8_t)r);
		if (ch->ch_corrupt)
			break;
		thread_yield();
	}
	bool corrupt = ch->ch_corrupt;
	if (corrupt)
		kprintf_err("churn: heap block corrupted\n");
	kfree(ch);
	return corrupt ? 1 : 0;
}
WORKLOAD(churn, wl_churn_main, "churn [COUNT]", "allocate and free COUNT batches of heap blocks");
