/*
 * bcache.h - the buffer cache: file-system blocks of a block device kept
 * in memory, read through and written back later.
 *
 * A cache serves one device in blocks of one size (the file system's,
 * 1024..4096 bytes); a block is named by its number on the device in
 * those units.  A caller gets a block held (bread, or bget for one it
 * will overwrite whole), reads or changes bb_data, marks it dirty after a
 * change (bdirty: a delayed write), and lets go (brelse).  A held block
 * stays in memory; a dirty one is written back by the flusher thread once
 * it has been dirty for BCACHE_AGE_NS, by bcache_sync/bsync, or before
 * its buffer is reused.  When the cache has bc_max buffers, a miss takes
 * the least recently used one nobody holds.
 *
 *   bcache_create(bd, bsize, nbufs)   a cache for bd (NULL: no memory)
 *   bcache_destroy(bc)                write back and free (nothing held)
 *   bread(bc, blk, file, foff, lblk, &err)
 *                                     block blk held, read if not cached;
 *                                     file/foff/lblk: the file and offset
 *                                     it holds (io's fileinfo_t: b_file,
 *                                     b_foff, b_lblkno), or NULL, 0, blk
 *                                     for metadata.  NULL and *err on error
 *   bget(bc, blk, file, foff, lblk, &err)
 *                                     the same without reading: zeroed if
 *                                     not cached (a block being allocated)
 *   bdirty(bb)                        it changed: write it back later
 *   bwrite(bb)                        write it now and wait (still held)
 *   brelse(bb)                        let go
 *   bcache_sync(bc)                   write every dirty block, wait: 0/-errno
 *   bsync()                           the same for every cache
 *   bcache_invalidate(bc, blk)        forget blk's contents (a freed block)
 *   bcache_stats_get(&st)             counters, summed over all caches
 *
 * Requests go through blk_strategy/biowait (kernel/blkdev.h) with the
 * buffer's own struct buf, so io:::start and io:::done see b_file and
 * b_foff as the caller gave them (a copy: the caller's string may go).
 *
 * Context: thread context (a mutex per cache, held across the I/O it
 * does); safe from several threads on several CPUs.  A block is not
 * locked while held: its user (kernel/ext2.c, which serializes its own
 * operations) must not let two threads change one block at once.
 */
#ifndef SONDE_BCACHE_H
#define SONDE_BCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/blkdev.h"
#include "kernel/lock.h"

#define BCACHE_AGE_NS   (5ULL * 1000000000ULL)   /* how long a block may stay dirty */
#define BCACHE_FILE_MAX 96                       /* b_file's copy, NUL included */

struct bcache;

struct bcbuf {
	uint8_t *bb_data;            /* bsize bytes */
	uint64_t bb_blkno;           /* the block's number on the device */
	struct bcache *bb_cache;
	/* Kept by kernel/bcache.c under the cache's mutex */
	int bb_refs;                 /* holders */
	bool bb_valid;               /* bb_data holds the block */
	bool bb_dirty;
	uint64_t bb_dirtied;         /* ktime_ns when it became dirty */
	struct bcbuf *bb_hnext;      /* hash chain */
	struct bcbuf *bb_prev, *bb_next;   /* LRU list: most recent first */
	char bb_file[BCACHE_FILE_MAX];
	struct buf bb_buf;           /* the request */
};

/* Counters (vmstat, iostat): blocks and bytes moved, cache hits. */
struct bcache_stats {
	uint64_t bs_lookups;         /* bread and bget calls */
	uint64_t bs_hits;            /* ... that found the block cached */
	uint64_t bs_reads;           /* blocks read from disk */
	uint64_t bs_writes;          /* blocks written to disk */
	uint64_t bs_nread;           /* bytes read from disk */
	uint64_t bs_nwritten;        /* bytes written to disk */
	uint64_t bs_evictions;       /* buffers reused for another block */
	uint64_t bs_errors;          /* requests that failed */
	uint64_t bs_bufs;            /* buffers now (gauge) */
	uint64_t bs_dirty;           /* dirty buffers now (gauge) */
};

struct bcache *bcache_create(struct blkdev *bd, uint32_t bsize, int nbufs);
void bcache_destroy(struct bcache *bc);
struct bcbuf *bread(struct bcache *bc, uint64_t blk, const char *file, uint64_t foff,
                    uint64_t lblk, int *err);
struct bcbuf *bget(struct bcache *bc, uint64_t blk, const char *file, uint64_t foff,
                   uint64_t lblk, int *err);
void bdirty(struct bcbuf *bb);
int bwrite(struct bcbuf *bb);
void brelse(struct bcbuf *bb);
int bcache_sync(struct bcache *bc);
int bsync(void);
void bcache_invalidate(struct bcache *bc, uint64_t blk);
void bcache_stats_get(struct bcache_stats *st);
/* bcache_flush_old: write the blocks dirty for longer than age_ns (the flusher's pass; tests call it). */
int bcache_flush_old(struct bcache *bc, uint64_t age_ns);

#endif
