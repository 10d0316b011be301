/*
 * blkdev.h - block devices and the requests they serve (struct buf).
 *
 * A block device is an array of 512-byte sectors behind a driver that
 * takes requests and completes them later, from its interrupt.  A request
 * is a struct buf, the shape of Solaris's buf(9S) as far as the io
 * provider's bufinfo_t reads it: b_flags (B_READ or B_WRITE, and B_DONE,
 * B_ERROR once finished), b_bcount bytes at b_addr, starting at sector
 * b_blkno of b_dev, and the file (b_file, b_foff) the buffer cache holds
 * it for, which fileinfo_t reports.
 *
 *   bioinit(bp)           zero a request (then fill in b_dev, b_flags, ...)
 *   blk_strategy(bp)      hand it to its device's driver; io:::start fires
 *   biowait(bp)           sleep until it is done: 0 or its b_error
 *                         (io:::wait-start and io:::wait-done around the sleep,
 *                         none if it was done already)
 *   biodone(bp)           the driver says it is done (any context, usually
 *                         the device's interrupt): io:::done fires, then
 *                         b_iodone if set, else biowait's sleeper wakes
 *   blk_rw(dev, ...)      one synchronous read or write, the three above
 *
 * A driver fills in a struct blkdev and calls blk_register (boot, thread
 * context); its bd_strategy queues the request (it may be called with
 * other requests in flight, from several CPUs) and returns at once, or
 * returns a negative errno without queueing.  b_addr must be in the
 * direct map or the kernel heap (virt_to_phys gives its pages), and a
 * request does not cross a page boundary unless its pages are contiguous
 * (kheap allocations of up to a page, and pmem pages, are).
 *
 * Context: blk_strategy and biowait in thread context; biodone in any.
 */
#ifndef SONDE_BLKDEV_H
#define SONDE_BLKDEV_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/devinfo.h"
#include "kernel/lock.h"

#define BLK_SECTOR 512

/* b_flags: Solaris's values, which D programs test (B_READ, B_WRITE are in dlang/lib/io.d). */
#define B_BUSY    0x0000001
#define B_DONE    0x0000002
#define B_ERROR   0x0000004
#define B_PAGEIO  0x0000010
#define B_PHYS    0x0000020
#define B_READ    0x0000040
#define B_WRITE   0x0000100
#define B_ASYNC   0x0000400

struct blkdev;

struct buf {
	int b_flags;                  /* B_READ or B_WRITE, | B_ASYNC; B_DONE, B_ERROR when finished */
	uint64_t b_bcount;            /* bytes to move: a multiple of BLK_SECTOR */
	void *b_addr;                 /* where they are (kernel memory) */
	uint64_t b_blkno;             /* the first sector on the device */
	uint64_t b_lblkno;            /* the file system's block number (for the Guide's b_lblkno) */
	uint64_t b_resid;             /* bytes not moved (0 on success) */
	int b_error;                  /* 0, or the errno of a failed request */
	struct blkdev *b_dev;
	const char *b_file;           /* the file it belongs to ("/disk/a/b"), or NULL: fileinfo_t's "<none>" */
	uint64_t b_foff;              /* offset in that file (fi_offset) */
	void (*b_iodone)(struct buf *bp);  /* called by biodone instead of waking a waiter (any context) */
	void *b_private;              /* for b_iodone's owner */
	void *b_drv;                  /* the driver's own, while it holds the request */
	/* biowait's sleep */
	spinlock_t b_lock;
	waitq_t b_wait;
};

struct blkdev {
	const char *bd_name;          /* the driver's name ("vioblk"): dev_name; with the instance, dev_statname */
	const char *bd_pathname;      /* the device's path (dev_pathname): "/devices/pci@0,0/...:a" */
	uint64_t bd_nsect;            /* size in sectors */
	bool bd_readonly;
	const char *bd_fstype;        /* set by the file system mounted on it ("ext2"), or NULL: fileinfo_t's fi_fs */
	const char *bd_mount;         /* where that is mounted ("/disk"): fi_mount */
	int (*bd_strategy)(struct blkdev *bd, struct buf *bp);
	void *bd_drv;                 /* the driver's own */
	struct dev_info bd_dip;       /* attached by the driver (dev_attach) before blk_register */
	/* Kept by kernel/blkdev.c */
	int bd_unit;                  /* registration order: 0, 1, ... */
	char bd_statname[16];         /* bd_name and instance: "vioblk0" */
	struct blk_stats {            /* iostat's, as Solaris's kstat_io counts them */
		uint64_t bs_reads, bs_writes;     /* requests completed */
		uint64_t bs_nread, bs_nwritten;   /* bytes moved */
		uint64_t bs_busy_ns;              /* time with at least one request in flight (rtime) */
		uint64_t bs_qlen_ns;              /* requests in flight, integrated over time (rlentime) */
	} bd_stats;
	uint64_t bd_stamp;            /* when bd_stats's times were last brought up to date */
	int bd_inflight;
	spinlock_t bd_lock;
};

void blk_register(struct blkdev *bd);
struct blkdev *blk_find(const char *statname);         /* "vioblk0", or NULL */
struct blkdev *blk_first(void);                        /* the first registered, or NULL */
void blk_each(void (*fn)(struct blkdev *bd, void *arg), void *arg);

/* blk_stats_read: bd's counters, their times brought up to now.  Any context. */
void blk_stats_read(struct blkdev *bd, struct blk_stats *out);

/* blk_count_logical: a buffer read (bread) or changed (bdirty, bwrite) in a cache: sysinfo's lread or lwrite.  Any context. */
void blk_count_logical(bool write);

void bioinit(struct buf *bp);
int blk_strategy(struct buf *bp);                      /* 0, or a negative errno (nothing queued) */
int biowait(struct buf *bp);                           /* 0 or a negative errno */
void biodone(struct buf *bp);
/* blk_rw: move n bytes (a multiple of 512) at sector blkno: 0 or a negative errno.  Thread context. */
int blk_rw(struct blkdev *bd, uint64_t blkno, void *addr, uint64_t n, bool write);

#endif
