/*
 * bcache.c - the buffer cache (see bcache.h for the interface).
 *
 * Theory.  Each cache holds up to bc_max buffers of one block each, found
 * by block number in a small hash table and kept on one list in order of
 * use, most recent first.  A miss takes a new buffer while there are
 * fewer than bc_max, else the least recently used buffer nobody holds
 * (written first if dirty); when every buffer is held it grows past the
 * bound rather than fail (holders are few and brief: one file-system
 * operation's worth).  Writes are delayed: bdirty only stamps the time,
 * and the flusher thread, once a second, writes what has been dirty for
 * BCACHE_AGE_NS.  bcache_sync starts every dirty block's write, then
 * waits for them all, so a sync is one batch for the driver.  A block is
 * marked clean before its write starts, so a change made while it is on
 * the way (bdirty again) is written by the next pass, never lost.
 *
 * One mutex per cache covers its table, list, buffers' state and
 * counters, and is held across the cache's own I/O (so two threads never
 * read one block twice, and a buffer never changes hands mid-request).
 * The list of caches has a mutex of its own, taken before a cache's.
 *
 * Context: thread context.
 *
 * Tests: tests/unit/kernel_ext2_test.c (through ext2, on a host device)
 */
#include "kernel/bcache.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/proc.h"          /* errno values */
#include "kernel/thread.h"
#include "kernel/time.h"

#ifdef SONDE_HOST
int kprintf(const char *fmt, ...) PRINTFLIKE(1, 2);   /* the host test's */
#endif

#define BC_HASH   64
#define BC_CACHES 8

struct bcache {
	struct blkdev *bc_dev;
	uint32_t bc_bsize;
	int bc_max;                  /* buffers it aims to keep at most */
	int bc_n;                    /* buffers it has */
	mutex_t bc_lock;
	struct bcbuf *bc_hash[BC_HASH];
	struct bcbuf *bc_head, *bc_tail;     /* LRU list */
	struct bcache_stats bc_stats;
};

static struct bcache *bc_all[BC_CACHES];
static mutex_t bc_all_lock = MUTEX_INIT("bcache_all");
static bool bc_flusher_started;

/* --- lists ---------------------------------------------------------------------------- */

static unsigned bc_slot(uint64_t blk)
{
	return (unsigned)(blk * 0x9e3779b97f4a7c15ULL >> 58) % BC_HASH;
}

static void lru_unlink(struct bcache *bc, struct bcbuf *bb)
{
	if (bb->bb_prev != NULL)
		bb->bb_prev->bb_next = bb->bb_next;
	else
		bc->bc_head = bb->bb_next;
	if (bb->bb_next != NULL)
		bb->bb_next->bb_prev = bb->bb_prev;
	else
		bc->bc_tail = bb->bb_prev;
	bb->bb_prev = bb->bb_next = NULL;
}

static void lru_front(struct bcache *bc, struct bcbuf *bb)
{
	bb->bb_next = bc->bc_head;
	bb->bb_prev = NULL;
	if (bc->bc_head != NULL)
		bc->bc_head->bb_prev = bb;
	bc->bc_head = bb;
	if (bc->bc_tail == NULL)
		bc->bc_tail = bb;
}

static void hash_remove(struct bcache *bc, struct bcbuf *bb)
{
	struct bcbuf **pp = &bc->bc_hash[bc_slot(bb->bb_blkno)];

	while (*pp != NULL && *pp != bb)
		pp = &(*pp)->bb_hnext;
	if (*pp == bb)
		*pp = bb->bb_hnext;
	bb->bb_hnext = NULL;
}

static struct bcbuf *hash_find(struct bcache *bc, uint64_t blk)
{
	for (struct bcbuf *bb = bc->bc_hash[bc_slot(blk)]; bb != NULL; bb = bb->bb_hnext)
		if (bb->bb_blkno == blk)
			return bb;
	return NULL;
}

/* --- I/O (the cache's mutex held) ------------------------------------------------------ */

/* bc_start: start bb's read or write; 0 or a negative errno (then nothing is in flight). */
static int bc_start(struct bcache *bc, struct bcbuf *bb, bool write)
{
	struct buf *bp = &bb->bb_buf;
	uint64_t lblk = bp->b_lblkno, foff = bp->b_foff;

	bioinit(bp);
	bp->b_dev = bc->bc_dev;
	bp->b_flags = write ? B_WRITE : B_READ;
	bp->b_addr = bb->bb_data;
	bp->b_bcount = bc->bc_bsize;
	bp->b_blkno = bb->bb_blkno * (bc->bc_bsize / BLK_SECTOR);
	bp->b_lblkno = lblk;
	bp->b_foff = foff;
	bp->b_file = bb->bb_file[0] != '\0' ? bb->bb_file : NULL;
	return blk_strategy(bp);
}

/* bc_finish: wait for a started request and count it. */
static int bc_finish(struct bcache *bc, struct bcbuf *bb, bool write)
{
	int err = biowait(&bb->bb_buf);

	if (err < 0) {
		bc->bc_stats.bs_errors++;
		return err;
	}
	if (write) {
		bc->bc_stats.bs_writes++;
		bc->bc_stats.bs_nwritten += bc->bc_bsize;
	} else {
		bc->bc_stats.bs_reads++;
		bc->bc_stats.bs_nread += bc->bc_bsize;
	}
	return 0;
}

static void set_clean(struct bcache *bc, struct bcbuf *bb)
{
	if (bb->bb_dirty) {
		bb->bb_dirty = false;
		bc->bc_stats.bs_dirty--;
	}
}

static void set_dirty(struct bcache *bc, struct bcbuf *bb)
{
	if (!bb->bb_dirty) {
		bb->bb_dirty = true;
		bb->bb_dirtied = ktime_ns();
		bc->bc_stats.bs_dirty++;
	}
}

/* bc_write_now: write bb and wait; dirty again if it failed. */
static int bc_write_now(struct bcache *bc, struct bcbuf *bb)
{
	set_clean(bc, bb);
	int err = bc_start(bc, bb, true);
	if (err == 0)
		err = bc_finish(bc, bb, true);
	else
		bc->bc_stats.bs_errors++;
	if (err < 0)
		set_dirty(bc, bb);
	return err;
}

/* --- creating ---------------------------------------------------------------------------- */

static void bc_flusher(void *arg);

struct bcache *bcache_create(struct blkdev *bd, uint32_t bsize, int nbufs)
{
	struct bcache *bc = kzalloc(sizeof(*bc));

	if (bc == NULL)
		return NULL;
	bc->bc_dev = bd;
	bc->bc_bsize = bsize;
	bc->bc_max = nbufs > 4 ? nbufs : 4;
	mutex_init(&bc->bc_lock, "bcache");
	mutex_lock(&bc_all_lock);
	int slot = -1;
	for (int i = 0; i < BC_CACHES && slot < 0; i++)
		if (bc_all[i] == NULL)
			slot = i;
	if (slot >= 0)
		bc_all[slot] = bc;
	bool spawn = slot >= 0 && !bc_flusher_started;
	if (spawn)
		bc_flusher_started = true;
	mutex_unlock(&bc_all_lock);
	if (slot < 0) {
		kfree(bc);
		return NULL;
	}
	if (spawn && thread_spawn("bflush", bc_flusher, NULL) == 0)
		kprintf("bcache: no flusher thread: dirty blocks wait for sync\n");
	return bc;
}

void bcache_destroy(struct bcache *bc)
{
	if (bc == NULL)
		return;
	mutex_lock(&bc_all_lock);
	for (int i = 0; i < BC_CACHES; i++)
		if (bc_all[i] == bc)
			bc_all[i] = NULL;
	mutex_unlock(&bc_all_lock);
	bcache_sync(bc);
	while (bc->bc_head != NULL) {
		struct bcbuf *bb = bc->bc_head;
		lru_unlink(bc, bb);
		kfree(bb->bb_data);
		kfree(bb);
	}
	kfree(bc);
}

/* --- getting and letting go --------------------------------------------------------------- */

/* bc_take: a buffer for blk (not in the table): new, or the LRU unheld one.  NULL and *err. */
static struct bcbuf *bc_take(struct bcache *bc, int *err)
{
	if (bc->bc_n >= bc->bc_max) {
		for (struct bcbuf *bb = bc->bc_tail; bb != NULL; bb = bb->bb_prev) {
			if (bb->bb_refs != 0)
				continue;
			if (bb->bb_dirty && (*err = bc_write_now(bc, bb)) < 0)
				return NULL;
			hash_remove(bc, bb);
			lru_unlink(bc, bb);
			bc->bc_stats.bs_evictions++;
			return bb;
		}
	}
	struct bcbuf *bb = kzalloc(sizeof(*bb));
	uint8_t *data = bb != NULL ? kmalloc(bc->bc_bsize) : NULL;
	if (data == NULL) {
		kfree(bb);
		*err = -ENOMEM;
		return NULL;
	}
	bb->bb_data = data;
	bb->bb_cache = bc;
	bc->bc_n++;
	bc->bc_stats.bs_bufs++;
	return bb;
}

static struct bcbuf *bc_get(struct bcache *bc, uint64_t blk, const char *file, uint64_t foff,
                            uint64_t lblk, bool rd, int *err)
{
	mutex_lock(&bc->bc_lock);
	bc->bc_stats.bs_lookups++;
	struct bcbuf *bb = hash_find(bc, blk);
	if (bb != NULL) {
		bc->bc_stats.bs_hits++;
		lru_unlink(bc, bb);
	} else if ((bb = bc_take(bc, err)) == NULL) {
		mutex_unlock(&bc->bc_lock);
		return NULL;
	} else {
		bb->bb_blkno = blk;
		bb->bb_valid = false;
		bb->bb_dirty = false;
		bb->bb_hnext = bc->bc_hash[bc_slot(blk)];
		bc->bc_hash[bc_slot(blk)] = bb;
	}
	lru_front(bc, bb);
	bb->bb_refs++;
	/* who it is for: fileinfo_t's, until another file's caller takes it */
	if (file != NULL || !bb->bb_valid) {
		kstrlcpy(bb->bb_file, file != NULL ? file : "", sizeof(bb->bb_file));
		bb->bb_buf.b_foff = foff;
		bb->bb_buf.b_lblkno = lblk;
	}
	if (!bb->bb_valid) {
		if (rd) {
			int e = bc_start(bc, bb, false);
			if (e == 0)
				e = bc_finish(bc, bb, false);
			else
				bc->bc_stats.bs_errors++;
			if (e < 0) {
				bb->bb_refs--;
				hash_remove(bc, bb);       /* forget it: a later bread tries again */
				bb->bb_blkno = UINT64_MAX;
				lru_unlink(bc, bb);
				kfree(bb->bb_data);
				kfree(bb);
				bc->bc_n--;
				bc->bc_stats.bs_bufs--;
				mutex_unlock(&bc->bc_lock);
				*err = e;
				return NULL;
			}
		} else {
			memset(bb->bb_data, 0, bc->bc_bsize);
		}
		bb->bb_valid = true;
	}
	mutex_unlock(&bc->bc_lock);
	return bb;
}

struct bcbuf *bread(struct bcache *bc, uint64_t blk, const char *file, uint64_t foff,
                    uint64_t lblk, int *err)
{
	blk_count_logical(false);
	return bc_get(bc, blk, file, foff, lblk, true, err);
}

struct bcbuf *bget(struct bcache *bc, uint64_t blk, const char *file, uint64_t foff,
                   uint64_t lblk, int *err)
{
	return bc_get(bc, blk, file, foff, lblk, false, err);
}

void bdirty(struct bcbuf *bb)
{
	struct bcache *bc = bb->bb_cache;

	blk_count_logical(true);
	mutex_lock(&bc->bc_lock);
	set_dirty(bc, bb);
	mutex_unlock(&bc->bc_lock);
}

int bwrite(struct bcbuf *bb)
{
	struct bcache *bc = bb->bb_cache;

	blk_count_logical(true);
	mutex_lock(&bc->bc_lock);
	int err = bc_write_now(bc, bb);
	mutex_unlock(&bc->bc_lock);
	return err;
}

void brelse(struct bcbuf *bb)
{
	struct bcache *bc;

	if (bb == NULL)
		return;
	bc = bb->bb_cache;
	mutex_lock(&bc->bc_lock);
	KASSERT(bb->bb_refs > 0);
	bb->bb_refs--;
	mutex_unlock(&bc->bc_lock);
}

void bcache_invalidate(struct bcache *bc, uint64_t blk)
{
	mutex_lock(&bc->bc_lock);
	struct bcbuf *bb = hash_find(bc, blk);
	if (bb != NULL && bb->bb_refs == 0) {
		set_clean(bc, bb);
		hash_remove(bc, bb);
		bb->bb_valid = false;
		bb->bb_blkno = UINT64_MAX;
		lru_unlink(bc, bb);          /* to the tail: the first to be reused */
		bb->bb_prev = bc->bc_tail;
		if (bc->bc_tail != NULL)
			bc->bc_tail->bb_next = bb;
		bc->bc_tail = bb;
		if (bc->bc_head == NULL)
			bc->bc_head = bb;
	}
	mutex_unlock(&bc->bc_lock);
}

/* --- writing back ------------------------------------------------------------------------ */

/* bc_flush: write every dirty block at least age_ns old, all started before any is waited for. */
static int bc_flush(struct bcache *bc, uint64_t age_ns)
{
	uint64_t now = ktime_ns();
	int err = 0;

	mutex_lock(&bc->bc_lock);
	for (struct bcbuf *bb = bc->bc_head; bb != NULL; bb = bb->bb_next) {
		bb->bb_buf.b_private = NULL;
		if (!bb->bb_dirty || now - bb->bb_dirtied < age_ns)
			continue;
		set_clean(bc, bb);
		int e = bc_start(bc, bb, true);
		if (e < 0) {
			bc->bc_stats.bs_errors++;
			set_dirty(bc, bb);
			err = err != 0 ? err : e;
			continue;
		}
		bb->bb_buf.b_private = bb;               /* started: wait for it below */
	}
	for (struct bcbuf *bb = bc->bc_head; bb != NULL; bb = bb->bb_next) {
		if (bb->bb_buf.b_private == NULL)
			continue;
		bb->bb_buf.b_private = NULL;
		int e = bc_finish(bc, bb, true);
		if (e < 0) {
			set_dirty(bc, bb);
			err = err != 0 ? err : e;
		}
	}
	mutex_unlock(&bc->bc_lock);
	return err;
}

int bcache_flush_old(struct bcache *bc, uint64_t age_ns)
{
	return bc_flush(bc, age_ns);
}

int bcache_sync(struct bcache *bc)
{
	return bc_flush(bc, 0);
}

int bsync(void)
{
	int err = 0;

	mutex_lock(&bc_all_lock);
	for (int i = 0; i < BC_CACHES; i++) {
		int e = bc_all[i] != NULL ? bcache_sync(bc_all[i]) : 0;
		err = err != 0 ? err : e;
	}
	mutex_unlock(&bc_all_lock);
	return err;
}

static void bc_flusher(void *arg)
{
	(void)arg;
	for (;;) {
		thread_sleep_ns(1000000000ULL);
		mutex_lock(&bc_all_lock);
		for (int i = 0; i < BC_CACHES; i++)
			if (bc_all[i] != NULL)
				bc_flush(bc_all[i], BCACHE_AGE_NS);
		mutex_unlock(&bc_all_lock);
	}
}

void bcache_stats_get(struct bcache_stats *st)
{
	memset(st, 0, sizeof(*st));
	mutex_lock(&bc_all_lock);
	for (int i = 0; i < BC_CACHES; i++) {
		struct bcache *bc = bc_all[i];
		if (bc == NULL)
			continue;
		mutex_lock(&bc->bc_lock);
		const struct bcache_stats *s = &bc->bc_stats;
		st->bs_lookups += s->bs_lookups;
		st->bs_hits += s->bs_hits;
		st->bs_reads += s->bs_reads;
		st->bs_writes += s->bs_writes;
		st->bs_nread += s->bs_nread;
		st->bs_nwritten += s->bs_nwritten;
		st->bs_evictions += s->bs_evictions;
		st->bs_errors += s->bs_errors;
		st->bs_bufs += s->bs_bufs;
		st->bs_dirty += s->bs_dirty;
		mutex_unlock(&bc->bc_lock);
	}
	mutex_unlock(&bc_all_lock);
}
