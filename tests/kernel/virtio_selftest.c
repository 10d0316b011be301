/*
 * virtio_selftest.c - PCI enumeration and the virtio disk driver.
 *
 * pci_enumerates: the table pci_init filled holds real devices (none on
 * sparc64, which has no PCI yet), in bus/device/function order.
 * pci_bars_distinct: every BAR kernel/pci.c sized has an address (the
 * firmware's or its own: qboot, the direct boots' firmware, assigns no I/O
 * BAR), aligned to its size, overlapping no other BAR of its space.
 * blk_virtio: on the first writable virtio disk (QEMU's -drive ... -device
 * virtio-blk-pci; tools/dtrace and make check attach build/disk.img, an
 * ext2 image): sector 2 holds the ext2 superblock's magic; 64 reads in
 * flight at once from one thread per CPU (at least 2) give the same bytes
 * as one large read (16 KiB of heap, not physically contiguous: the
 * driver splits it); a pattern written to the last sector reads back, and
 * the old contents are put back; requests past the end fail with ENXIO
 * before reaching the driver; a read-only disk (BOOT=efi's ESP) refuses
 * writes.  Without a disk it says so and passes.
 * blk_virtio_bad_input: what the driver makes of odd device answers
 * (capacity 0, queue size 0, odd sizes, unexpected statuses, a used entry
 * that names no request), through its real completion path on a ring no
 * device serves.
 * blk_virtio_backlog: requests beyond what the ring holds wait in the
 * driver and are posted, in order, as completions free descriptors.
 *
 * Run: qemu-system-x86_64 ... -drive file=COPY,if=none,id=disk0,format=raw
 *      -device virtio-blk-pci,drive=disk0 -append selftest=blk_virtio*
 */
#include "kernel/blkdev.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/pci.h"
#include "kernel/proc.h"          /* errno values */
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "kernel/virtio_blk.h"

#define REF_SECTORS   32          /* the reference read: 16 KiB */
#define READS_PER     16          /* reads per thread */
#define READ_BYTES    1024

SELFTEST(pci_enumerates)
{
	int prev = -1;

	for (int i = 0; i < pci_count(); i++) {
		const struct pci_dev *pd = pci_get(i);
		int key = pd->pd_bus << 8 | pd->pd_dev << 3 | pd->pd_fn;
		ST_ASSERT(pd->pd_vendor != 0xffff);
		ST_ASSERT(key > prev);
		prev = key;
	}
	ST_ASSERT(pci_get(pci_count()) == NULL);
	ST_ASSERT(pci_find(0xffff, 0xffff, 0) == NULL);
}

/* bar_span: BAR i of pd as [lo, hi) in its space (1: I/O, 2: memory); 0 when it is not sized. */
static int bar_span(const struct pci_dev *pd, int i, uint64_t *lo, uint64_t *hi)
{
	if (pd->pd_bar_size[i] == 0)
		return 0;
	bool io;
	*lo = pci_bar_addr(pd, i, &io);
	*hi = *lo + pd->pd_bar_size[i];
	return io ? 1 : 2;
}

SELFTEST(pci_bars_distinct)
{
	int sized = 0;

	for (int a = 0; a < pci_count(); a++) {
		for (int i = 0; i < 6; i++) {
			uint64_t lo, hi;
			int space = bar_span(pci_get(a), i, &lo, &hi);
			if (space == 0)
				continue;
			sized++;
			ST_ASSERT(lo != 0);
			ST_ASSERT((lo & (pci_get(a)->pd_bar_size[i] - 1)) == 0);
			for (int b = 0; b < pci_count(); b++)
				for (int j = 0; j < 6; j++) {
					uint64_t lo2, hi2;
					if ((a == b && i == j) || bar_span(pci_get(b), j, &lo2, &hi2) != space)
						continue;
					ST_ASSERT(hi <= lo2 || hi2 <= lo);
				}
		}
	}
	ST_ASSERT(pci_count() == 0 || sized > 0);   /* QEMU's pc machine always has some */
}

static void first_writable(struct blkdev *bd, void *arg)
{
	struct blkdev **found = arg;

	if (*found == NULL && !bd->bd_readonly && strcmp(bd->bd_name, "vioblk") == 0)
		*found = bd;
}

struct reader {
	struct blkdev *rd_bd;
	int rd_id, rd_cpu;
	const uint8_t *rd_ref;
	volatile int rd_bad;          /* reads that failed or differed */
	int rd_peak;                  /* the disk's requests in flight once all of ours were issued */
};

/* reader: READS_PER reads all issued before any is waited for; each compared with the reference. */
static void reader(void *arg)
{
	struct reader *r = arg;
	struct buf *bufs = kmalloc(sizeof(struct buf) * READS_PER);
	uint8_t *data = kmalloc(READ_BYTES * READS_PER);
	int bad = 0;

	thread_bind(r->rd_cpu);
	if (bufs == NULL || data == NULL) {
		r->rd_bad = READS_PER;
		kfree(bufs);
		kfree(data);
		return;
	}
	for (int k = 0; k < READS_PER; k++) {
		struct buf *bp = &bufs[k];
		bioinit(bp);
		bp->b_dev = r->rd_bd;
		bp->b_blkno = (uint64_t)((r->rd_id * READS_PER + k) % (REF_SECTORS / 2 - 1)) * 2;
		bp->b_addr = data + k * READ_BYTES;
		bp->b_bcount = READ_BYTES;
		bp->b_flags = B_READ;
		if (blk_strategy(bp) < 0)
			bad++;
	}
	r->rd_peak = __atomic_load_n(&r->rd_bd->bd_inflight, __ATOMIC_RELAXED);
	for (int k = 0; k < READS_PER; k++) {
		struct buf *bp = &bufs[k];
		if (!(bp->b_flags & B_DONE) || bp->b_error == 0) {
			if (biowait(bp) != 0 ||
			    memcmp(bp->b_addr, r->rd_ref + bp->b_blkno * BLK_SECTOR, READ_BYTES) != 0)
				bad++;
		}
	}
	r->rd_bad = bad;
	kfree(bufs);
	kfree(data);
}

static void concurrent_reads(struct selftest_ctx *st_ctx, struct blkdev *bd)
{
	uint8_t *ref = kmalloc(REF_SECTORS * BLK_SECTOR);
	int nthreads = ncpus > 4 ? ncpus : 4;     /* 64 reads from 4 threads (more with more CPUs) */
	struct reader rd[16];
	uint64_t tid[16];

	if (nthreads > 16)
		nthreads = 16;
	ST_ASSERT(ref != NULL);
	if (ref == NULL)
		return;
	ST_ASSERT(blk_rw(bd, 0, ref, REF_SECTORS * BLK_SECTOR, false) == 0);
	ST_ASSERT(ref[2 * BLK_SECTOR + 56] == 0x53 && ref[2 * BLK_SECTOR + 57] == 0xef);
	uint64_t reads0 = bd->bd_stats.bs_reads;
	for (int i = 0; i < nthreads; i++) {
		rd[i] = (struct reader){ bd, i, i % ncpus, ref, 0, 0 };
		tid[i] = thread_spawn("st-vioblk", reader, &rd[i]);
		ST_ASSERT(tid[i] != 0);
	}
	int peak = 0;
	for (int i = 0; i < nthreads; i++) {
		if (tid[i] != 0)
			thread_join(tid[i]);
		ST_ASSERT(rd[i].rd_bad == 0);
		if (rd[i].rd_peak > peak)
			peak = rd[i].rd_peak;
	}
	kprintf("# blk_virtio: %d reads from %d threads on %d CPU(s), up to %d in flight\n",
	        nthreads * READS_PER, nthreads, ncpus, peak);
	ST_ASSERT(bd->bd_stats.bs_reads - reads0 == (uint64_t)nthreads * READS_PER);
	ST_ASSERT(bd->bd_inflight == 0);
	kfree(ref);
}

static void write_and_restore(struct selftest_ctx *st_ctx, struct blkdev *bd)
{
	uint8_t *orig = kmalloc(BLK_SECTOR), *pat = kmalloc(BLK_SECTOR), *back = kmalloc(BLK_SECTOR);
	uint64_t s = bd->bd_nsect - 1;

	ST_ASSERT(orig != NULL && pat != NULL && back != NULL);
	if (orig != NULL && pat != NULL && back != NULL) {
		for (int i = 0; i < BLK_SECTOR; i++)
			pat[i] = (uint8_t)(i * 7 + 0x5a);
		ST_ASSERT(blk_rw(bd, s, orig, BLK_SECTOR, false) == 0);
		ST_ASSERT(blk_rw(bd, s, pat, BLK_SECTOR, true) == 0);
		ST_ASSERT(blk_rw(bd, s, back, BLK_SECTOR, false) == 0);
		ST_ASSERT(memcmp(back, pat, BLK_SECTOR) == 0);
		ST_ASSERT(blk_rw(bd, s, orig, BLK_SECTOR, true) == 0);
		ST_ASSERT(blk_rw(bd, s, back, BLK_SECTOR, false) == 0);
		ST_ASSERT(memcmp(back, orig, BLK_SECTOR) == 0);
	}
	kfree(orig);
	kfree(pat);
	kfree(back);
}

static void past_the_end(struct selftest_ctx *st_ctx, struct blkdev *bd)
{
	uint8_t *b = kmalloc(2 * BLK_SECTOR);
	uint64_t reads0 = bd->bd_stats.bs_reads;

	ST_ASSERT(b != NULL);
	if (b == NULL)
		return;
	ST_ASSERT(blk_rw(bd, bd->bd_nsect, b, BLK_SECTOR, false) == -ENXIO);
	ST_ASSERT(blk_rw(bd, bd->bd_nsect - 1, b, 2 * BLK_SECTOR, false) == -ENXIO);
	ST_ASSERT(blk_rw(bd, UINT64_MAX, b, BLK_SECTOR, false) == -ENXIO);
	ST_ASSERT(bd->bd_stats.bs_reads == reads0 && bd->bd_inflight == 0);
	ST_ASSERT(blk_rw(bd, bd->bd_nsect - 2, b, 2 * BLK_SECTOR, false) == 0);   /* the last two are fine */
	kfree(b);
}

/* each_disk: name every virtio disk; a read-only one refuses writes (EROFS) and still reads. */
static void each_disk(struct blkdev *bd, void *arg)
{
	struct selftest_ctx *st_ctx = arg;
	static uint8_t sector[BLK_SECTOR];

	if (strcmp(bd->bd_name, "vioblk") != 0)
		return;
	kprintf("# blk_virtio: %s at %s: %lu sectors, %s\n", bd->bd_statname, bd->bd_pathname,
	        bd->bd_nsect, bd->bd_readonly ? "read-only" : "read-write");
	if (bd->bd_readonly) {
		ST_ASSERT(blk_rw(bd, 0, sector, BLK_SECTOR, true) == -EROFS);
		ST_ASSERT(blk_rw(bd, 0, sector, BLK_SECTOR, false) == 0);
	}
}

SELFTEST(blk_virtio)
{
	struct blkdev *bd = NULL;

	blk_each(each_disk, st_ctx);
	blk_each(first_writable, &bd);
	if (bd == NULL) {
		kprintf("# blk_virtio: no writable virtio disk attached (-drive ... -device virtio-blk-pci): skipped\n");
		return;
	}
	ST_ASSERT(bd->bd_nsect >= REF_SECTORS);
	ST_ASSERT(strncmp(bd->bd_pathname, "/devices/pci@0,0/pci1af4,2@", 27) == 0);
	if (bd->bd_nsect < REF_SECTORS)
		return;
	concurrent_reads(st_ctx, bd);
	write_and_restore(st_ctx, bd);
	past_the_end(st_ctx, bd);
}

SELFTEST(blk_virtio_bad_input)
{
	ST_ASSERT(vioblk_config_error(0, 256) != NULL);
	ST_ASSERT(vioblk_config_error(1000, 0) != NULL);
	ST_ASSERT(vioblk_config_error(1000, 512) != NULL);
	ST_ASSERT(vioblk_config_error(1000, 100) != NULL);
	ST_ASSERT(vioblk_config_error(1000, 256) == NULL);
	ST_ASSERT(vioblk_config_error(1, 1) == NULL);
	ST_ASSERT(vioblk_fake_complete(0, UINT32_MAX) == 0);
	ST_ASSERT(vioblk_fake_complete(1, UINT32_MAX) == EIO);      /* IOERR */
	ST_ASSERT(vioblk_fake_complete(2, UINT32_MAX) == EIO);      /* UNSUPP */
	ST_ASSERT(vioblk_fake_complete(0x7f, UINT32_MAX) == EIO);   /* no such status */
	ST_ASSERT(vioblk_fake_complete(0xff, UINT32_MAX) == EIO);   /* the device wrote none */
	ST_ASSERT(vioblk_fake_complete(0, 5) == -1);                /* a used entry naming no request: ignored */
	ST_ASSERT(vioblk_fake_complete(0, 1000) == -1);             /* nor a descriptor at all */
}

SELFTEST(blk_virtio_backlog)
{
	ST_ASSERT(vioblk_fake_backlog() == 0);
}
