/*
 * bcache_selftest.c - the buffer cache (kernel/bcache.c) on several CPUs.
 *
 * A memory-backed disk (its strategy copies and calls biodone at once, in
 * the caller's thread) under a cache of 8 buffers for 32 blocks, so nearly
 * every lookup evicts a block, dirty ones written first.  Threads on every
 * CPU each count, in bytes of their own in every block, how many times
 * they have been there; after a sync the disk must hold every count (no
 * write lost by eviction, flushing or a race), and the counters must add
 * up.  Not registered with blk_register: /disk never sees this disk.
 */
#include "kernel/bcache.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"

#define BC_ST_BLOCKS 32
#define BC_ST_BSIZE  1024
#define BC_ST_ROUNDS 300
#define BC_ST_MAXT   16

static int ram_strategy(struct blkdev *bd, struct buf *bp)
{
	uint8_t *ram = bd->bd_drv;
	uint8_t *at = ram + bp->b_blkno * BLK_SECTOR;

	if (bp->b_flags & B_WRITE)
		memcpy(at, bp->b_addr, bp->b_bcount);
	else
		memcpy(bp->b_addr, at, bp->b_bcount);
	biodone(bp);
	return 0;
}

struct bc_st {
	struct bcache *bs_bc;
	int bs_id;
	int bs_errors;
};

/* bc_worker: visit the blocks in an order of its own, counting visits in its own byte pair. */
static void bc_worker(void *arg)
{
	struct bc_st *st = arg;

	for (int i = 0; i < BC_ST_ROUNDS; i++) {
		int err = 0;
		uint64_t blk = (uint64_t)(i * (2 * st->bs_id + 1) + st->bs_id) % BC_ST_BLOCKS;
		struct bcbuf *bb = bread(st->bs_bc, blk, NULL, 0, blk, &err);
		if (bb == NULL) {
			st->bs_errors++;
			continue;
		}
		uint16_t *slot = (uint16_t *)(bb->bb_data + st->bs_id * 2);
		(*slot)++;
		bdirty(bb);
		brelse(bb);
		if (i % 50 == 0)
			bcache_flush_old(st->bs_bc, 0);       /* the flusher's pass, racing the others */
	}
}

SELFTEST(bcache_smp_no_lost_writes)
{
	static struct blkdev bd;
	static struct bc_st st[BC_ST_MAXT];
	uint64_t tid[BC_ST_MAXT];
	int n = MIN(ncpus * 2, BC_ST_MAXT);
	uint8_t *ram = kzalloc(BC_ST_BLOCKS * BC_ST_BSIZE);

	ST_ASSERT(ram != NULL);
	memset(&bd, 0, sizeof(bd));
	bd.bd_name = "ramst";
	kstrlcpy(bd.bd_statname, "ramst0", sizeof(bd.bd_statname));
	bd.bd_nsect = BC_ST_BLOCKS * BC_ST_BSIZE / BLK_SECTOR;
	bd.bd_strategy = ram_strategy;
	bd.bd_drv = ram;
	spin_init(&bd.bd_lock, "ramst");
	struct bcache_stats before, after;
	bcache_stats_get(&before);
	struct bcache *bc = bcache_create(&bd, BC_ST_BSIZE, 8);
	ST_ASSERT(bc != NULL);
	for (int t = 0; t < n; t++) {
		st[t] = (struct bc_st){ .bs_bc = bc, .bs_id = t };
		tid[t] = thread_spawn("st-bcache", bc_worker, &st[t]);
	}
	for (int t = 0; t < n; t++)
		if (tid[t] != 0)
			thread_join(tid[t]);
	ST_ASSERT(bcache_sync(bc) == 0);
	bcache_stats_get(&after);
	for (int t = 0; t < n; t++) {
		ST_ASSERT(tid[t] != 0 && st[t].bs_errors == 0);
		uint32_t total = 0;
		for (int b = 0; b < BC_ST_BLOCKS; b++) {
			uint16_t v;
			memcpy(&v, ram + b * BC_ST_BSIZE + t * 2, 2);
			total += v;
		}
		ST_ASSERT(total == BC_ST_ROUNDS);
	}
	ST_ASSERT(after.bs_lookups - before.bs_lookups == (uint64_t)n * BC_ST_ROUNDS);
	ST_ASSERT(after.bs_evictions > before.bs_evictions);
	ST_ASSERT(after.bs_writes > before.bs_writes);
	ST_ASSERT(after.bs_dirty == before.bs_dirty);
	bcache_destroy(bc);
	kfree(ram);
}
