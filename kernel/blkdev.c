/*
 * blkdev.c - the block device layer: registering disks, issuing and
 * waiting for requests, and the io provider's probes.
 *
 * Theory.  The layer owns nothing but the bookkeeping between a request's
 * owner (the buffer cache, a self-test) and a driver: blk_strategy checks
 * the request lies on the device, counts the device busy, fires
 * io:::start and hands it to bd_strategy; the driver's biodone fires
 * io:::done, counts the bytes and wakes the owner.  biowait sleeps on the
 * request's own wait queue, between io:::wait-start and io:::wait-done,
 * only if the request is not done yet.  The probes are sdt sites named
 * io__start and so on, which trace/prov_sdt.c publishes as the io
 * provider (io:::start ...), each with arg0 the struct buf *, which the
 * D library (dlang/lib/io.d) translates to bufinfo_t, devinfo_t and
 * fileinfo_t as the Dynamic Tracing Guide documents them.
 *
 * The statistics are Solaris's kstat_io ones, which iostat reads: requests
 * and bytes completed, the time the device had at least one request in
 * flight (busy: %b) and the number in flight integrated over time (its
 * ratio to the interval is actv, to the requests the service time),
 * brought up to date whenever the number in flight changes (blk_account).
 *
 * The sysinfo statistics of buffers are counted here too: bread and bwrite
 * (with bawrite for a B_ASYNC one) for each request that goes to a device,
 * just before it does, and lread and lwrite for the buffer cache's
 * logical reads and writes (blk_count_logical), as the Guide describes them.

 * Context: as blkdev.h says.
 *
 * Tests: tests/d/disk, tests/d/io; tests/e2e/test_disk_crash.py;
 * tests/unit/kernel_ext2_test.c (under the buffer cache, over a host disk)
 */
#include "kernel/blkdev.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/proc.h"          /* errno values */
#include "kernel/sdt.h"
#include "kernel/time.h"

#ifdef SONDE_HOST
int kprintf(const char *fmt, ...) PRINTFLIKE(1, 2);   /* the host test's */
#endif

#define BLK_MAX 8

static struct blkdev *blk_devs[BLK_MAX];
static int blk_ndevs;
static spinlock_t blk_list_lock = SPINLOCK_INIT("blk_list");

void blk_register(struct blkdev *bd)
{
	spin_lock(&blk_list_lock);
	if (blk_ndevs == BLK_MAX) {
		spin_unlock(&blk_list_lock);
		kprintf("blkdev: %s: too many disks (%d), not registered\n", bd->bd_name, BLK_MAX);
		return;
	}
	bd->bd_unit = blk_ndevs;
	ksnprintf(bd->bd_statname, sizeof bd->bd_statname, "%s%d", bd->bd_name,
	          bd->bd_dip.devi_instance);
	spin_init(&bd->bd_lock, "blkdev");
	blk_devs[blk_ndevs++] = bd;
	spin_unlock(&blk_list_lock);
}

struct blkdev *blk_find(const char *statname)
{
	for (int i = 0; i < blk_ndevs; i++)
		if (strcmp(blk_devs[i]->bd_statname, statname) == 0)
			return blk_devs[i];
	return NULL;
}

struct blkdev *blk_first(void)
{
	return blk_ndevs > 0 ? blk_devs[0] : NULL;
}

void blk_each(void (*fn)(struct blkdev *bd, void *arg), void *arg)
{
	for (int i = 0; i < blk_ndevs; i++)
		fn(blk_devs[i], arg);
}

/* blk_account: bring bd's times up to now, then add delta to the requests in flight.  bd_lock held. */
static void blk_account(struct blkdev *bd, int delta)
{
	uint64_t now = ktime_ns();

	if (bd->bd_inflight > 0) {
		bd->bd_stats.bs_busy_ns += now - bd->bd_stamp;
		bd->bd_stats.bs_qlen_ns += (now - bd->bd_stamp) * (uint64_t)bd->bd_inflight;
	}
	bd->bd_stamp = now;
	bd->bd_inflight += delta;
}

void blk_stats_read(struct blkdev *bd, struct blk_stats *out)
{
	spin_lock(&bd->bd_lock);
	blk_account(bd, 0);
	*out = bd->bd_stats;
	spin_unlock(&bd->bd_lock);
}

void blk_count_logical(bool write)
{
	if (write)
		SYSINFO_ADD(lwrite, 1);
	else
		SYSINFO_ADD(lread, 1);
}

void bioinit(struct buf *bp)
{
	memset(bp, 0, sizeof *bp);
	spin_init(&bp->b_lock, "buf");
}

int blk_strategy(struct buf *bp)
{
	struct blkdev *bd = bp->b_dev;
	uint64_t nsect = bp->b_bcount / BLK_SECTOR;

	if (bd == NULL || bp->b_bcount == 0 || bp->b_bcount % BLK_SECTOR != 0)
		return -EINVAL;
	if (bp->b_blkno > bd->bd_nsect || nsect > bd->bd_nsect - bp->b_blkno)
		return -ENXIO;                       /* past the end of the disk */
	if ((bp->b_flags & B_WRITE) && bd->bd_readonly)
		return -EROFS;
	bp->b_flags = (bp->b_flags & (B_READ | B_WRITE | B_ASYNC | B_PAGEIO | B_PHYS)) | B_BUSY;
	bp->b_error = 0;
	bp->b_resid = 0;
	spin_lock(&bd->bd_lock);
	blk_account(bd, 1);
	spin_unlock(&bd->bd_lock);
	if (bp->b_flags & B_WRITE) {
		SYSINFO_ADD(bwrite, 1);
		if (bp->b_flags & B_ASYNC)
			SYSINFO_ADD(bawrite, 1);
	} else {
		SYSINFO_ADD(bread, 1);
	}
	DTRACE_PROBE1(io__start, bp);
	int err = bd->bd_strategy(bd, bp);
	if (err < 0) {
		spin_lock(&bd->bd_lock);
		blk_account(bd, -1);
		spin_unlock(&bd->bd_lock);
		bp->b_error = -err;
		bp->b_flags = (bp->b_flags & ~B_BUSY) | B_DONE | B_ERROR;
		DTRACE_PROBE1(io__done, bp);
	}
	return err;
}

void biodone(struct buf *bp)
{
	struct blkdev *bd = bp->b_dev;

	spin_lock(&bd->bd_lock);
	if (bp->b_error == 0) {
		if (bp->b_flags & B_WRITE) {
			bd->bd_stats.bs_writes++;
			bd->bd_stats.bs_nwritten += bp->b_bcount - bp->b_resid;
		} else {
			bd->bd_stats.bs_reads++;
			bd->bd_stats.bs_nread += bp->b_bcount - bp->b_resid;
		}
	}
	blk_account(bd, -1);
	spin_unlock(&bd->bd_lock);
	if (bp->b_error != 0)
		bp->b_flags |= B_ERROR;
	DTRACE_PROBE1(io__done, bp);
	if (bp->b_iodone != NULL) {
		bp->b_flags = (bp->b_flags & ~B_BUSY) | B_DONE;
		bp->b_iodone(bp);
		return;
	}
	spin_lock(&bp->b_lock);
	bp->b_flags = (bp->b_flags & ~B_BUSY) | B_DONE;
	waitq_wake_all(&bp->b_wait);
	spin_unlock(&bp->b_lock);
}

int biowait(struct buf *bp)
{
	spin_lock(&bp->b_lock);
	if (!(bp->b_flags & B_DONE)) {
		DTRACE_PROBE1(io__wait__start, bp);
		while (!(bp->b_flags & B_DONE))
			waitq_sleep(&bp->b_wait, &bp->b_lock);
		DTRACE_PROBE1(io__wait__done, bp);
	}
	spin_unlock(&bp->b_lock);
	return bp->b_error ? -bp->b_error : 0;
}

int blk_rw(struct blkdev *bd, uint64_t blkno, void *addr, uint64_t n, bool write)
{
	struct buf b;

	bioinit(&b);
	b.b_dev = bd;
	b.b_blkno = blkno;
	b.b_addr = addr;
	b.b_bcount = n;
	b.b_flags = write ? B_WRITE : B_READ;
	int err = blk_strategy(&b);
	if (err < 0)
		return err;
	return biowait(&b);
}
