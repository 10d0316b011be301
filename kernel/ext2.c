/*
 * ext2.c - the ext2 file system (see ext2.h for what it does).
 *
 * Theory.  The on-disk structures are read and written field by field in
 * little-endian byte order (get16/get32, put16/put32 at byte offsets
 * from the format's tables), so the code is the same on big-endian
 * sparc64 and needs no packed structs.  The superblock (1024 bytes at
 * byte 1024) and the group descriptor table live in memory for the
 * mount's life; every change to either is copied at once into its
 * cached block and marked dirty, so the cache always holds a consistent
 * file system and a sync writes it.  Inodes are decoded into struct
 * e2ino and encoded back into their cached inode-table block (fields
 * this file does not know are left as they were).
 *
 * Allocation: a block or inode is a bit in its group's bitmap; the
 * search starts in the group of the inode that needs it (locality) and
 * goes round.  Every bit taken or given back moves three counts
 * together: the bitmap, the group's free count and the superblock's,
 * which is what e2fsck's pass 5 compares.  A file's blocks are mapped
 * by i_block[]: 12 direct, then single, double and triple indirect
 * trees; an indirect block is allocated (zeroed) on the way down when a
 * write needs it, and freed by truncate when the range it covers goes.
 *
 * Directories are lists of variable-length entries in blocks; an entry
 * is added in the slack of one (or a new block appended), and removed
 * by growing the previous entry over it (or zeroing its inode, first in
 * a block).  Lookups validate every record (length, alignment, name
 * length) and report a corrupt one as EIO.
 *
 * Concurrency: one mutex per mount (fs_lock) around each public call.
 * Open files keep an entry in fs_nodes (inode number, count), so an
 * unlinked inode still open is freed at its last close.
 *
 * Context: thread context.
 *
 * Tests: tests/unit/kernel_ext2_test.c (mke2fs-made images, e2fsck -fn
 * after each step, debugfs for contents); tests/e2e/test_disk.py
 */
#include "kernel/ext2.h"
#include "kernel/bcache.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/proc.h"          /* errno values */
#include "kernel/time.h"

#ifdef SONDE_HOST
int kprintf(const char *fmt, ...) PRINTFLIKE(1, 2);
#endif

#define EXT2_MAGIC      0xEF53
#define EXT2_ROOT       2
#define EXT2_NDIR       12
#define EXT2_IND        12
#define EXT2_DIND       13
#define EXT2_TIND       14
#define EXT2_INDEX_FL   0x1000
#define EXT2_CACHE_BUFS 2048       /* the buffer cache, KiB: more than /disk/data/lines.txt, so a reread is memory (make bench) */

/* features */
#define INCOMPAT_FILETYPE    0x0002
#define RO_SPARSE_SUPER      0x0001
#define RO_LARGE_FILE        0x0002
#define INCOMPAT_OK          INCOMPAT_FILETYPE
#define RO_COMPAT_OK         (RO_SPARSE_SUPER | RO_LARGE_FILE)

/* superblock offsets */
#define SB_INODES     0
#define SB_BLOCKS     4
#define SB_FREE_B     12
#define SB_FREE_I     16
#define SB_FIRST_DATA 20
#define SB_LOG_BSIZE  24
#define SB_BPG        32
#define SB_IPG        40
#define SB_MAGIC      56
#define SB_REV        76
#define SB_FIRST_INO  84
#define SB_INODE_SIZE 88
#define SB_COMPAT     92
#define SB_INCOMPAT   96
#define SB_RO_COMPAT  100

/* inode modes */
#define S_IFMT   0170000
#define S_IFDIR  0040000
#define S_IFREG  0100000
#define S_IFLNK  0120000

#define ELOOP_ 40

struct e2node {                  /* an inode some open file holds */
	uint32_t n_ino;
	int n_refs;
	struct e2node *n_next;
};

struct ext2fs {
	struct blkdev *fs_dev;
	struct bcache *fs_bc;
	mutex_t fs_lock;
	uint8_t fs_sb[1024];
	uint8_t *fs_gd;              /* ngroups * 32 bytes */
	uint32_t fs_bsize, fs_ngroups, fs_bpg, fs_ipg, fs_isize, fs_first_ino, fs_first_data;
	uint32_t fs_nblocks, fs_ninodes, fs_ptrs;    /* ptrs: block numbers per block */
	uint64_t fs_maxsize;
	bool fs_ro, fs_filetype;
	struct e2node *fs_nodes;
	char fs_prefix[32];
};

struct e2ino {                   /* the fields of an inode this file uses */
	uint16_t i_mode, i_links;
	uint64_t i_size;
	uint32_t i_blocks, i_flags, i_atime, i_ctime, i_mtime, i_dtime;
	uint32_t i_block[15];
};

struct e2file {                  /* an open file's f_priv */
	struct ext2fs *ef_fs;
	uint32_t ef_ino;
	bool ef_dir;
	uint64_t ef_rd_idx, ef_rd_off;   /* readdir's cursor: entry ef_rd_idx is at byte ef_rd_off */
	char ef_path[BCACHE_FILE_MAX];
};

/* --- bytes --------------------------------------------------------------------------------- */

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }

static uint32_t now_sec(void)
{
#ifdef SONDE_HOST
	return 1700000000u;
#else
	return (uint32_t)(ktime_wall_ns(ktime_ns()) / 1000000000ULL);
#endif
}

static int corrupt(struct ext2fs *fs, const char *what, uint64_t n)
{
	kprintf("ext2: %s: corrupt file system: %s %llu\n", fs->fs_dev->bd_statname, what,
	        (unsigned long long)n);
	return -EIO;
}

/* --- superblock and group descriptors ------------------------------------------------------ */

static uint8_t *gd(struct ext2fs *fs, uint32_t g) { return fs->fs_gd + (size_t)g * 32; }

/* sb_flush: the in-memory superblock into its cached block, dirty. */
static int sb_flush(struct ext2fs *fs)
{
	int err = 0;
	uint64_t blk = 1024 / fs->fs_bsize;
	struct bcbuf *bb = bread(fs->fs_bc, blk, NULL, 0, blk, &err);

	if (bb == NULL)
		return err;
	memcpy(bb->bb_data + 1024 % fs->fs_bsize, fs->fs_sb, 1024);
	bdirty(bb);
	brelse(bb);
	return 0;
}

static int gd_flush(struct ext2fs *fs, uint32_t g)
{
	int err = 0;
	uint32_t per = fs->fs_bsize / 32;
	uint64_t blk = fs->fs_first_data + 1 + g / per;
	struct bcbuf *bb = bread(fs->fs_bc, blk, NULL, 0, blk, &err);

	if (bb == NULL)
		return err;
	memcpy(bb->bb_data + (g % per) * 32, gd(fs, g), 32);
	bdirty(bb);
	brelse(bb);
	return 0;
}

/* count_add: move a group's free count (off 12 blocks, 14 inodes) and the superblock's by d. */
static void count_add(struct ext2fs *fs, uint32_t g, int gdoff, int sboff, int d)
{
	put16(gd(fs, g) + gdoff, (uint16_t)(get16(gd(fs, g) + gdoff) + d));
	put32(fs->fs_sb + sboff, get32(fs->fs_sb + sboff) + (uint32_t)d);
	gd_flush(fs, g);
	sb_flush(fs);
}

static void dirs_add(struct ext2fs *fs, uint32_t ino, int d)
{
	uint32_t g = (ino - 1) / fs->fs_ipg;

	put16(gd(fs, g) + 16, (uint16_t)(get16(gd(fs, g) + 16) + d));
	gd_flush(fs, g);
}

/* --- inodes -------------------------------------------------------------------------------- */

/* ino_loc: inode ino's block and byte offset in it. */
static int ino_loc(struct ext2fs *fs, uint32_t ino, uint64_t *blk, uint32_t *off)
{
	if (ino < 1 || ino > fs->fs_ninodes)
		return corrupt(fs, "inode number", ino);
	uint32_t g = (ino - 1) / fs->fs_ipg, idx = (ino - 1) % fs->fs_ipg;
	uint64_t byte = (uint64_t)idx * fs->fs_isize;
	*blk = get32(gd(fs, g) + 8) + byte / fs->fs_bsize;
	*off = (uint32_t)(byte % fs->fs_bsize);
	return 0;
}

static int iget(struct ext2fs *fs, uint32_t ino, struct e2ino *ip)
{
	uint64_t blk;
	uint32_t off;
	int err = ino_loc(fs, ino, &blk, &off);
	struct bcbuf *bb = err == 0 ? bread(fs->fs_bc, blk, NULL, 0, blk, &err) : NULL;

	if (bb == NULL)
		return err;
	const uint8_t *p = bb->bb_data + off;
	ip->i_mode = get16(p);
	ip->i_size = get32(p + 4);
	if ((ip->i_mode & S_IFMT) == S_IFREG && get32(fs->fs_sb + SB_REV) > 0)
		ip->i_size |= (uint64_t)get32(p + 108) << 32;
	ip->i_atime = get32(p + 8);
	ip->i_ctime = get32(p + 12);
	ip->i_mtime = get32(p + 16);
	ip->i_dtime = get32(p + 20);
	ip->i_links = get16(p + 26);
	ip->i_blocks = get32(p + 28);
	ip->i_flags = get32(p + 32);
	for (int i = 0; i < 15; i++)
		ip->i_block[i] = get32(p + 40 + 4 * i);
	brelse(bb);
	return 0;
}

/* iput: *ip into inode ino; fresh: the whole on-disk inode zeroed first (a new inode). */
static int iput(struct ext2fs *fs, uint32_t ino, const struct e2ino *ip, bool fresh)
{
	uint64_t blk;
	uint32_t off;
	int err = ino_loc(fs, ino, &blk, &off);
	struct bcbuf *bb = err == 0 ? bread(fs->fs_bc, blk, NULL, 0, blk, &err) : NULL;

	if (bb == NULL)
		return err;
	uint8_t *p = bb->bb_data + off;
	if (fresh) {
		memset(p, 0, fs->fs_isize);
		if (fs->fs_isize > 128)
			put16(p + 128, 32);          /* i_extra_isize, as mke2fs makes them */
	}
	put16(p, ip->i_mode);
	put32(p + 4, (uint32_t)ip->i_size);
	if ((ip->i_mode & S_IFMT) == S_IFREG && get32(fs->fs_sb + SB_REV) > 0)
		put32(p + 108, (uint32_t)(ip->i_size >> 32));
	put32(p + 8, ip->i_atime);
	put32(p + 12, ip->i_ctime);
	put32(p + 16, ip->i_mtime);
	put32(p + 20, ip->i_dtime);
	put16(p + 26, ip->i_links);
	put32(p + 28, ip->i_blocks);
	put32(p + 32, ip->i_flags);
	for (int i = 0; i < 15; i++)
		put32(p + 40 + 4 * i, ip->i_block[i]);
	bdirty(bb);
	brelse(bb);
	return 0;
}

/* --- bitmaps ------------------------------------------------------------------------------- */

/*
 * bit_take: a clear bit among the first n of the bitmap in block bmblk,
 * at or after from; set it.  Its index, or -1 (none), or a negative errno - 1.
 */
static int64_t bit_take(struct ext2fs *fs, uint64_t bmblk, uint32_t n, uint32_t from)
{
	int err = 0;
	struct bcbuf *bb = bread(fs->fs_bc, bmblk, NULL, 0, bmblk, &err);

	if (bb == NULL)
		return (int64_t)err - 1;
	for (uint32_t i = from; i < n; i++) {
		if (bb->bb_data[i / 8] == 0xff) {
			i |= 7;
			continue;
		}
		if (!(bb->bb_data[i / 8] & (1u << (i % 8)))) {
			bb->bb_data[i / 8] |= (uint8_t)(1u << (i % 8));
			bdirty(bb);
			brelse(bb);
			return i;
		}
	}
	brelse(bb);
	return -1;
}

/* bit_clear: clear bit i of bitmap block bmblk: 0, 1 (was clear already: corrupt) or a negative errno. */
static int bit_clear(struct ext2fs *fs, uint64_t bmblk, uint32_t i)
{
	int err = 0;
	struct bcbuf *bb = bread(fs->fs_bc, bmblk, NULL, 0, bmblk, &err);

	if (bb == NULL)
		return err;
	bool was = bb->bb_data[i / 8] & (1u << (i % 8));
	bb->bb_data[i / 8] &= (uint8_t)~(1u << (i % 8));
	bdirty(bb);
	brelse(bb);
	return was ? 0 : 1;
}

static uint32_t group_blocks(struct ext2fs *fs, uint32_t g)
{
	uint32_t start = fs->fs_first_data + g * fs->fs_bpg;
	return MIN(fs->fs_bpg, fs->fs_nblocks - start);
}

/* balloc: a free block, zeroed in the cache; near group g.  0 or -ENOSPC, -EIO. */
static int balloc(struct ext2fs *fs, uint32_t g0, uint32_t *out)
{
	if (get32(fs->fs_sb + SB_FREE_B) == 0)
		return -ENOSPC;
	for (uint32_t k = 0; k < fs->fs_ngroups; k++) {
		uint32_t g = (g0 + k) % fs->fs_ngroups;
		if (get16(gd(fs, g) + 12) == 0)
			continue;
		int64_t i = bit_take(fs, get32(gd(fs, g)), group_blocks(fs, g), 0);
		if (i < -1)
			return (int)(i + 1);
		if (i < 0)
			continue;
		uint32_t blk = fs->fs_first_data + g * fs->fs_bpg + (uint32_t)i;
		count_add(fs, g, 12, SB_FREE_B, -1);
		int err = 0;
		struct bcbuf *bb = bget(fs->fs_bc, blk, NULL, 0, blk, &err);
		if (bb != NULL) {
			memset(bb->bb_data, 0, fs->fs_bsize);
			bdirty(bb);
			brelse(bb);
		}
		*out = blk;
		return 0;
	}
	return -ENOSPC;
}

static void bfree(struct ext2fs *fs, uint32_t blk)
{
	if (blk < fs->fs_first_data || blk >= fs->fs_nblocks) {
		corrupt(fs, "block number freed", blk);
		return;
	}
	uint32_t g = (blk - fs->fs_first_data) / fs->fs_bpg;
	int r = bit_clear(fs, get32(gd(fs, g)), (blk - fs->fs_first_data) % fs->fs_bpg);
	if (r == 0)
		count_add(fs, g, 12, SB_FREE_B, 1);
	else if (r == 1)
		corrupt(fs, "block freed twice", blk);
	bcache_invalidate(fs->fs_bc, blk);
}

/* ialloc: a free inode near group g0.  0 or -ENOSPC, -EIO. */
static int ialloc(struct ext2fs *fs, uint32_t g0, bool dir, uint32_t *out)
{
	if (get32(fs->fs_sb + SB_FREE_I) == 0)
		return -ENOSPC;
	for (uint32_t k = 0; k < fs->fs_ngroups; k++) {
		uint32_t g = (g0 + k) % fs->fs_ngroups;
		if (get16(gd(fs, g) + 14) == 0)
			continue;
		uint32_t from = g == 0 ? fs->fs_first_ino - 1 : 0;
		int64_t i = bit_take(fs, get32(gd(fs, g) + 4), fs->fs_ipg, from);
		if (i < -1)
			return (int)(i + 1);
		if (i < 0)
			continue;
		count_add(fs, g, 14, SB_FREE_I, -1);
		*out = g * fs->fs_ipg + (uint32_t)i + 1;
		if (dir)
			dirs_add(fs, *out, 1);
		return 0;
	}
	return -ENOSPC;
}

static void ifree(struct ext2fs *fs, uint32_t ino, bool dir)
{
	uint32_t g = (ino - 1) / fs->fs_ipg;
	int r = bit_clear(fs, get32(gd(fs, g) + 4), (ino - 1) % fs->fs_ipg);

	if (r == 0) {
		count_add(fs, g, 14, SB_FREE_I, 1);
		if (dir)
			dirs_add(fs, ino, -1);
	} else if (r == 1) {
		corrupt(fs, "inode freed twice", ino);
	}
}

/* --- block maps ---------------------------------------------------------------------------- */

static uint32_t ino_group(struct ext2fs *fs, uint32_t ino) { return (ino - 1) / fs->fs_ipg; }

static int check_blk(struct ext2fs *fs, uint32_t b)
{
	return b != 0 && (b < fs->fs_first_data || b >= fs->fs_nblocks) ? corrupt(fs, "block number", b) : 0;
}

/*
 * bmap: the disk block of file block lblk of inode ino (*ip), 0 for a
 * hole; with alloc, holes (and the indirect blocks on the way) are
 * filled, *ip updated (the caller writes it).  0 or a negative errno.
 */
static int bmap(struct ext2fs *fs, uint32_t ino, struct e2ino *ip, uint64_t lblk, bool alloc,
                uint32_t *out)
{
	uint64_t p = fs->fs_ptrs;
	int level, err;
	uint32_t *slot;
	uint64_t idx[3];

	*out = 0;
	if (lblk < EXT2_NDIR) {
		slot = &ip->i_block[lblk];
		level = 0;
	} else if ((lblk -= EXT2_NDIR) < p) {
		slot = &ip->i_block[EXT2_IND];
		level = 1;
		idx[0] = lblk;
	} else if ((lblk -= p) < p * p) {
		slot = &ip->i_block[EXT2_DIND];
		level = 2;
		idx[0] = lblk / p;
		idx[1] = lblk % p;
	} else if ((lblk -= p * p) < p * p * p) {
		slot = &ip->i_block[EXT2_TIND];
		level = 3;
		idx[0] = lblk / (p * p);
		idx[1] = lblk / p % p;
		idx[2] = lblk % p;
	} else {
		return -EFBIG;
	}
	uint32_t blk = *slot;
	if ((err = check_blk(fs, blk)) < 0)
		return err;
	if (blk == 0) {
		if (!alloc)
			return 0;
		if ((err = balloc(fs, ino_group(fs, ino), &blk)) < 0)
			return err;
		*slot = blk;
		ip->i_blocks += fs->fs_bsize / 512;
	}
	for (int l = 0; l < level; l++) {
		struct bcbuf *bb = bread(fs->fs_bc, blk, NULL, 0, blk, &err);
		if (bb == NULL)
			return err;
		uint8_t *e = bb->bb_data + idx[l] * 4;
		uint32_t next = get32(e);
		if ((err = check_blk(fs, next)) < 0) {
			brelse(bb);
			return err;
		}
		if (next == 0) {
			if (!alloc) {
				brelse(bb);
				return 0;
			}
			if ((err = balloc(fs, ino_group(fs, ino), &next)) < 0) {
				brelse(bb);
				return err;
			}
			put32(e, next);
			bdirty(bb);
			ip->i_blocks += fs->fs_bsize / 512;
		}
		brelse(bb);
		blk = next;
	}
	*out = blk;
	return 0;
}

/*
 * free_tree: free the blocks of the subtree in *slot (level 0: a data
 * block; 1..3: indirect) that map file blocks at or past from; base is
 * the first file block it maps.  The subtree's own block goes when
 * nothing before from is in it.
 */
static void free_tree(struct ext2fs *fs, struct e2ino *ip, uint32_t *slot, int level, uint64_t base,
                      uint64_t from)
{
	uint32_t blk = *slot;
	uint64_t span = 1;

	if (blk == 0 || check_blk(fs, blk) < 0)
		return;
	for (int l = 1; l < level; l++)
		span *= fs->fs_ptrs;
	if (level > 0) {
		int err = 0;
		struct bcbuf *bb = bread(fs->fs_bc, blk, NULL, 0, blk, &err);
		if (bb == NULL)
			return;
		bool changed = false;
		for (uint32_t i = 0; i < fs->fs_ptrs; i++) {
			uint64_t cb = base + i * span;
			uint32_t c = get32(bb->bb_data + i * 4);
			if (cb + span <= from || c == 0)
				continue;
			free_tree(fs, ip, &c, level - 1, cb, from);
			put32(bb->bb_data + i * 4, c);
			changed = true;
		}
		if (changed)
			bdirty(bb);
		brelse(bb);
	}
	if (from <= base) {
		bfree(fs, blk);
		ip->i_blocks -= MIN(ip->i_blocks, fs->fs_bsize / 512);
		*slot = 0;
	}
}

/* blocks_free_from: free every block of *ip mapping file block from or later. */
static void blocks_free_from(struct ext2fs *fs, struct e2ino *ip, uint64_t from)
{
	uint64_t p = fs->fs_ptrs;

	for (uint64_t i = from; i < EXT2_NDIR; i++)
		free_tree(fs, ip, &ip->i_block[i], 0, i, from);
	free_tree(fs, ip, &ip->i_block[EXT2_IND], 1, EXT2_NDIR, from);
	free_tree(fs, ip, &ip->i_block[EXT2_DIND], 2, EXT2_NDIR + p, from);
	free_tree(fs, ip, &ip->i_block[EXT2_TIND], 3, EXT2_NDIR + p + p * p, from);
}

/* has_blocks: does the inode's i_block hold block numbers (not a fast symlink's text)? */
static bool has_blocks(const struct e2ino *ip)
{
	return (ip->i_mode & S_IFMT) != S_IFLNK || ip->i_blocks != 0;
}

/* --- file contents -------------------------------------------------------------------------- */

static int64_t data_read(struct ext2fs *fs, uint32_t ino, const char *path, uint64_t off, void *buf,
                         size_t n)
{
	struct e2ino in;
	int err = iget(fs, ino, &in);
	size_t got = 0;

	if (err < 0)
		return err;
	if (off >= in.i_size)
		return 0;
	n = (size_t)MIN((uint64_t)n, in.i_size - off);
	while (got < n) {
		uint64_t lblk = off / fs->fs_bsize;
		uint32_t boff = (uint32_t)(off % fs->fs_bsize), pblk;
		size_t run = MIN(n - got, (size_t)(fs->fs_bsize - boff));
		if ((err = bmap(fs, ino, &in, lblk, false, &pblk)) < 0)
			return got > 0 ? (int64_t)got : err;
		if (pblk == 0) {
			memset((char *)buf + got, 0, run);
		} else {
			struct bcbuf *bb = bread(fs->fs_bc, pblk, path, lblk * fs->fs_bsize, lblk, &err);
			if (bb == NULL)
				return got > 0 ? (int64_t)got : err;
			memcpy((char *)buf + got, bb->bb_data + boff, run);
			brelse(bb);
		}
		got += run;
		off += run;
	}
	return (int64_t)got;
}

/* data_write: n bytes at off; the inode's size grows to cover them.  Bytes written or an error. */
static int64_t data_write(struct ext2fs *fs, uint32_t ino, const char *path, uint64_t off,
                          const void *buf, size_t n)
{
	struct e2ino in;
	int err = iget(fs, ino, &in);
	size_t done = 0;

	if (err < 0)
		return err;
	if (off >= fs->fs_maxsize || n > fs->fs_maxsize - off)
		return off >= fs->fs_maxsize ? -EFBIG : data_write(fs, ino, path, off, buf, (size_t)(fs->fs_maxsize - off));
	while (done < n) {
		uint64_t lblk = off / fs->fs_bsize;
		uint32_t boff = (uint32_t)(off % fs->fs_bsize), pblk;
		size_t run = MIN(n - done, (size_t)(fs->fs_bsize - boff));
		if ((err = bmap(fs, ino, &in, lblk, true, &pblk)) < 0)
			break;
		struct bcbuf *bb = run == fs->fs_bsize
			? bget(fs->fs_bc, pblk, path, lblk * fs->fs_bsize, lblk, &err)
			: bread(fs->fs_bc, pblk, path, lblk * fs->fs_bsize, lblk, &err);
		if (bb == NULL)
			break;
		memcpy(bb->bb_data + boff, (const char *)buf + done, run);
		bdirty(bb);
		brelse(bb);
		done += run;
		off += run;
		if (off > in.i_size)
			in.i_size = off;
	}
	in.i_mtime = in.i_ctime = now_sec();
	int e2 = iput(fs, ino, &in, false);
	if (done > 0)
		return (int64_t)done;
	return err < 0 ? err : e2;
}

/* set_size: truncate(2) of inode ino to size (shrink frees blocks; grow leaves a hole). */
static int set_size(struct ext2fs *fs, uint32_t ino, uint64_t size)
{
	struct e2ino in;
	int err = iget(fs, ino, &in);

	if (err < 0)
		return err;
	if (size > fs->fs_maxsize)
		return -EFBIG;
	if (size < in.i_size) {
		blocks_free_from(fs, &in, (size + fs->fs_bsize - 1) / fs->fs_bsize);
		uint32_t tail = (uint32_t)(size % fs->fs_bsize), pblk;
		if (tail != 0 && bmap(fs, ino, &in, size / fs->fs_bsize, false, &pblk) == 0 && pblk != 0) {
			struct bcbuf *bb = bread(fs->fs_bc, pblk, NULL, 0, pblk, &err);
			if (bb != NULL) {                 /* zeros past the end, for a later grow */
				memset(bb->bb_data + tail, 0, fs->fs_bsize - tail);
				bdirty(bb);
				brelse(bb);
			}
		}
	}
	in.i_size = size;
	in.i_mtime = in.i_ctime = now_sec();
	return iput(fs, ino, &in, false);
}

/* --- directories ---------------------------------------------------------------------------- */

struct dloc {                    /* where a directory entry is */
	uint32_t dl_pblk;
	uint32_t dl_off, dl_prev;    /* byte offsets in the block; dl_prev == dl_off: first in block */
	uint32_t dl_ino;
	uint8_t dl_type;
};

/* dent_ok: is the record at off of a block sane? */
static bool dent_ok(struct ext2fs *fs, const uint8_t *d, uint32_t off)
{
	uint16_t rec = get16(d + 4);
	return rec >= 8 && rec % 4 == 0 && off + rec <= fs->fs_bsize && d[6] + 8u <= rec;
}

/*
 * dir_scan: call fn on each record of directory dino's blocks (in: its
 * inode), in order, with the record's block held (fn may change it and
 * bdirty it): fn returns 0 to go on, anything else to stop, which
 * dir_scan returns once the block is let go.  0 when every record was
 * seen; -EIO (with a message) at a record that is not sane.
 */
typedef int (*dent_fn)(struct ext2fs *fs, struct bcbuf *bb, uint32_t off, uint32_t prev, void *arg);

static int dir_scan(struct ext2fs *fs, uint32_t dino, struct e2ino *in, dent_fn fn, void *arg)
{
	uint64_t nblk = in->i_size / fs->fs_bsize;
	int err;

	for (uint64_t lb = 0; lb < nblk; lb++) {
		uint32_t pblk;
		if ((err = bmap(fs, dino, in, lb, false, &pblk)) < 0)
			return err;
		if (pblk == 0)
			continue;
		struct bcbuf *bb = bread(fs->fs_bc, pblk, NULL, 0, pblk, &err);
		if (bb == NULL)
			return err;
		uint32_t prev = 0;
		for (uint32_t off = 0; off < fs->fs_bsize; ) {
			const uint8_t *d = bb->bb_data + off;
			if (!dent_ok(fs, d, off)) {
				brelse(bb);
				return corrupt(fs, "directory entry in inode", dino);
			}
			uint16_t rec = get16(d + 4);     /* before fn: it may split the record */
			int r = fn(fs, bb, off, prev, arg);
			if (r != 0) {
				brelse(bb);
				return r;
			}
			prev = off;
			off += rec;
		}
		brelse(bb);
	}
	return 0;
}

/* The name dir_find looks for, and where it was found. */
struct find_arg {
	const char *fa_name;
	size_t fa_len;
	struct dloc *fa_loc;
};

static int find_one(struct ext2fs *fs, struct bcbuf *bb, uint32_t off, uint32_t prev, void *arg)
{
	const struct find_arg *fa = arg;
	const uint8_t *d = bb->bb_data + off;
	uint32_t ino = get32(d);

	(void)fs;
	if (ino == 0 || d[6] != fa->fa_len || memcmp(d + 8, fa->fa_name, fa->fa_len) != 0)
		return 0;
	*fa->fa_loc = (struct dloc){ .dl_pblk = (uint32_t)bb->bb_blkno, .dl_off = off, .dl_prev = prev,
	                             .dl_ino = ino, .dl_type = d[7] };
	return 1;
}

/*
 * dir_find: the entry called name (len bytes) in directory ino.  0 and
 * *loc, -ENOENT, or another error.
 */
static int dir_find(struct ext2fs *fs, uint32_t dino, const char *name, size_t len, struct dloc *loc)
{
	struct e2ino in;
	int err = iget(fs, dino, &in);

	if (err < 0)
		return err;
	if ((in.i_mode & S_IFMT) != S_IFDIR)
		return -ENOTDIR;
	struct find_arg fa = { name, len, loc };
	err = dir_scan(fs, dino, &in, find_one, &fa);
	return err == 1 ? 0 : err < 0 ? err : -ENOENT;
}

static uint8_t dt_of_mode(uint16_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return 1;
	case S_IFDIR: return 2;
	case 0020000: return 3;
	case 0060000: return 4;
	case 0010000: return 5;
	case 0140000: return 6;
	case S_IFLNK: return 7;
	}
	return 0;
}

static void dent_put(struct ext2fs *fs, uint8_t *d, uint32_t ino, uint16_t rec, const char *name,
                     size_t len, uint16_t mode)
{
	put32(d, ino);
	put16(d + 4, rec);
	d[6] = (uint8_t)len;
	d[7] = fs->fs_filetype ? dt_of_mode(mode) : 0;
	memcpy(d + 8, name, len);
}

/* dir_touch: the directory changed: times, and its hash index (if any) is no longer right. */
static void dir_touch(struct e2ino *din)
{
	din->i_flags &= ~(uint32_t)EXT2_INDEX_FL;
	din->i_mtime = din->i_ctime = now_sec();
}

/* The entry dir_add puts in. */
struct add_arg {
	const char *aa_name;
	size_t aa_len;
	uint32_t aa_ino, aa_need;
	uint16_t aa_mode;
};

/* add_into: put the entry into the record at off if it has room to spare after its own name. */
static int add_into(struct ext2fs *fs, struct bcbuf *bb, uint32_t off, uint32_t prev, void *arg)
{
	const struct add_arg *aa = arg;
	uint8_t *d = bb->bb_data + off;
	uint16_t rec = get16(d + 4);
	uint32_t used = get32(d) != 0 ? (uint32_t)ALIGN_UP(8 + d[6], 4) : 0;

	(void)prev;
	if (rec - used < aa->aa_need)
		return 0;
	if (used > 0) {
		put16(d + 4, (uint16_t)used);
		d += used;
	}
	dent_put(fs, d, aa->aa_ino, (uint16_t)(rec - used), aa->aa_name, aa->aa_len, aa->aa_mode);
	bdirty(bb);
	return 1;
}

/* dir_add: an entry name -> ino (of mode) in directory dino.  0, -ENOSPC, -EIO. */
static int dir_add(struct ext2fs *fs, uint32_t dino, const char *name, size_t len, uint32_t ino,
                   uint16_t mode)
{
	struct e2ino din;
	int err = iget(fs, dino, &din);

	if (err < 0)
		return err;
	struct add_arg aa = { name, len, ino, (uint32_t)ALIGN_UP(8 + len, 4), mode };
	if ((err = dir_scan(fs, dino, &din, add_into, &aa)) != 0) {
		if (err < 0)
			return err;
		dir_touch(&din);
		return iput(fs, dino, &din, false);
	}
	uint64_t nblk = din.i_size / fs->fs_bsize;
	/* no room: a new block at the end */
	uint32_t pblk;
	struct e2ino save = din;
	if ((err = bmap(fs, dino, &din, nblk, true, &pblk)) < 0) {
		/* an indirect block may have been taken: give back what the failed map took */
		blocks_free_from(fs, &din, nblk);
		if (din.i_blocks != save.i_blocks)
			iput(fs, dino, &din, false);
		return err;
	}
	struct bcbuf *bb = bread(fs->fs_bc, pblk, NULL, 0, pblk, &err);
	if (bb == NULL)
		return err;
	memset(bb->bb_data, 0, fs->fs_bsize);
	dent_put(fs, bb->bb_data, ino, (uint16_t)fs->fs_bsize, name, len, mode);
	bdirty(bb);
	brelse(bb);
	din.i_size += fs->fs_bsize;
	dir_touch(&din);
	return iput(fs, dino, &din, false);
}

/* dir_remove: take out the entry at *loc of directory dino. */
static int dir_remove(struct ext2fs *fs, uint32_t dino, const struct dloc *loc)
{
	int err = 0;
	struct bcbuf *bb = bread(fs->fs_bc, loc->dl_pblk, NULL, 0, loc->dl_pblk, &err);
	struct e2ino din;

	if (bb == NULL)
		return err;
	uint8_t *d = bb->bb_data + loc->dl_off;
	if (loc->dl_off == loc->dl_prev || loc->dl_off == 0) {
		put32(d, 0);
	} else {
		uint8_t *p = bb->bb_data + loc->dl_prev;
		put16(p + 4, (uint16_t)(get16(p + 4) + get16(d + 4)));
	}
	bdirty(bb);
	brelse(bb);
	if ((err = iget(fs, dino, &din)) < 0)
		return err;
	dir_touch(&din);
	return iput(fs, dino, &din, false);
}

/* dir_set_dotdot: directory ino's ".." now names parent. */
static int dir_set_dotdot(struct ext2fs *fs, uint32_t ino, uint32_t parent)
{
	struct dloc loc;
	int err = dir_find(fs, ino, "..", 2, &loc);
	struct bcbuf *bb;

	if (err < 0)
		return err == -ENOENT ? corrupt(fs, "no .. in directory", ino) : err;
	if ((bb = bread(fs->fs_bc, loc.dl_pblk, NULL, 0, loc.dl_pblk, &err)) == NULL)
		return err;
	put32(bb->bb_data + loc.dl_off, parent);
	bdirty(bb);
	brelse(bb);
	return 0;
}

/* not_dot: a record that names something other than "." and "..": stop. */
static int not_dot(struct ext2fs *fs, struct bcbuf *bb, uint32_t off, uint32_t prev, void *arg)
{
	const uint8_t *d = bb->bb_data + off;
	bool dot = (d[6] == 1 && d[8] == '.') || (d[6] == 2 && d[8] == '.' && d[9] == '.');

	(void)fs, (void)prev, (void)arg;
	return get32(d) != 0 && !dot;
}

/* dir_empty: does directory ino hold nothing but "." and ".."?  1, 0 or an error. */
static int dir_empty(struct ext2fs *fs, uint32_t dino)
{
	struct e2ino in;
	int err = iget(fs, dino, &in);

	if (err < 0)
		return err;
	err = dir_scan(fs, dino, &in, not_dot, NULL);
	return err < 0 ? err : err == 0;
}

/* --- paths ------------------------------------------------------------------------------------ */

/*
 * walk: the inode of rel, or with parent, of rel's directory, the last
 * name's start in *last (its length in *lastlen).  0 or -ENOENT,
 * -ENOTDIR, -ENAMETOOLONG, -EIO.
 */
static int walk(struct ext2fs *fs, const char *rel, bool parent, uint32_t *ino, const char **last,
                size_t *lastlen)
{
	uint32_t cur = EXT2_ROOT;
	const char *p = rel;

	while (*p == '/')
		p++;
	for (;;) {
		const char *e = p;
		while (*e != '\0' && *e != '/')
			e++;
		size_t n = (size_t)(e - p);
		if (n > EXT2_NAME_MAX)
			return -ENAMETOOLONG;
		const char *q = e;
		while (*q == '/')
			q++;
		if (parent && *q == '\0') {
			if (n == 0)
				return -EBUSY;           /* the root itself */
			*ino = cur;
			*last = p;
			*lastlen = n;
			return 0;
		}
		if (n == 0)
			break;
		struct dloc loc;
		int err = dir_find(fs, cur, p, n, &loc);
		if (err < 0)
			return err;
		cur = loc.dl_ino;
		p = q;
		if (*p == '\0')
			break;
	}
	*ino = cur;
	return 0;
}

/* --- nodes held by open files --------------------------------------------------------------- */

static struct e2node *node_find(struct ext2fs *fs, uint32_t ino)
{
	for (struct e2node *n = fs->fs_nodes; n != NULL; n = n->n_next)
		if (n->n_ino == ino)
			return n;
	return NULL;
}

static int node_hold(struct ext2fs *fs, uint32_t ino)
{
	struct e2node *n = node_find(fs, ino);

	if (n == NULL) {
		if ((n = kzalloc(sizeof(*n))) == NULL)
			return -ENOMEM;
		n->n_ino = ino;
		n->n_next = fs->fs_nodes;
		fs->fs_nodes = n;
	}
	n->n_refs++;
	return 0;
}

/* ino_destroy: free inode ino and all its blocks (its last link and last open file are gone). */
static void ino_destroy(struct ext2fs *fs, uint32_t ino)
{
	struct e2ino in;

	if (iget(fs, ino, &in) < 0)
		return;
	bool dir = (in.i_mode & S_IFMT) == S_IFDIR;
	if (has_blocks(&in))
		blocks_free_from(fs, &in, 0);
	in.i_size = 0;
	in.i_links = 0;
	in.i_dtime = now_sec();
	iput(fs, ino, &in, false);
	ifree(fs, ino, dir);
}

/* node_release: an open file of ino closed; the last one of an unlinked inode frees it. */
static void node_release(struct ext2fs *fs, uint32_t ino)
{
	struct e2node **pp = &fs->fs_nodes;

	while (*pp != NULL && (*pp)->n_ino != ino)
		pp = &(*pp)->n_next;
	struct e2node *n = *pp;
	if (n == NULL || --n->n_refs > 0)
		return;
	*pp = n->n_next;
	kfree(n);
	struct e2ino in;
	if (iget(fs, ino, &in) == 0 && in.i_links == 0 && in.i_dtime == 0)
		ino_destroy(fs, ino);
}

/* link_drop: one name of ino gone: free it at zero links unless open. */
static int link_drop(struct ext2fs *fs, uint32_t ino, int drop)
{
	struct e2ino in;
	int err = iget(fs, ino, &in);

	if (err < 0)
		return err;
	in.i_links = (uint16_t)(in.i_links > drop ? in.i_links - drop : 0);
	in.i_ctime = now_sec();
	if ((err = iput(fs, ino, &in, false)) < 0)
		return err;
	if (in.i_links == 0 && node_find(fs, ino) == NULL)
		ino_destroy(fs, ino);
	return 0;
}

/* --- open files ----------------------------------------------------------------------------- */

static struct e2file *ef_of(struct file *f) { return f->f_priv; }

static int64_t ef_read(struct file *f, void *buf, size_t n)
{
	struct e2file *ef = ef_of(f);
	struct ext2fs *fs = ef->ef_fs;

	if (ef->ef_dir)
		return -EISDIR;
	mutex_lock(&fs->fs_lock);
	int64_t r = data_read(fs, ef->ef_ino, ef->ef_path, f->f_off, buf, n);
	mutex_unlock(&fs->fs_lock);
	if (r > 0)
		f->f_off += (uint64_t)r;
	return r;
}

static int64_t ef_write(struct file *f, const void *buf, size_t n)
{
	struct e2file *ef = ef_of(f);
	struct ext2fs *fs = ef->ef_fs;
	int64_t r;

	if (ef->ef_dir)
		return -EISDIR;
	if (fs->fs_ro)
		return -EROFS;
	if (n == 0)
		return 0;
	mutex_lock(&fs->fs_lock);
	if (f->f_flags & FILE_O_APPEND) {
		struct e2ino in;
		if ((r = iget(fs, ef->ef_ino, &in)) == 0)
			f->f_off = in.i_size;
	}
	r = data_write(fs, ef->ef_ino, ef->ef_path, f->f_off, buf, n);
	mutex_unlock(&fs->fs_lock);
	if (r > 0)
		f->f_off += (uint64_t)r;
	return r;
}

static void ef_stat_ino(struct ext2fs *fs, uint32_t ino, struct file_stat *st)
{
	struct e2ino in;

	memset(st, 0, sizeof(*st));
	if (iget(fs, ino, &in) < 0)
		return;
	st->fs_mode = in.i_mode;
	st->fs_size = in.i_size;
	st->fs_ino = ino;
	st->fs_nlink = in.i_links;
}

static void ef_stat(struct file *f, struct file_stat *st)
{
	struct e2file *ef = ef_of(f);

	mutex_lock(&ef->ef_fs->fs_lock);
	ef_stat_ino(ef->ef_fs, ef->ef_ino, st);
	mutex_unlock(&ef->ef_fs->fs_lock);
}

static uint64_t ef_size(struct file *f)
{
	struct file_stat st;

	ef_stat(f, &st);
	return st.fs_size;
}

static int ef_truncate(struct file *f, uint64_t size)
{
	struct e2file *ef = ef_of(f);
	struct ext2fs *fs = ef->ef_fs;

	if (ef->ef_dir)
		return -EINVAL;
	if (fs->fs_ro)
		return -EROFS;
	mutex_lock(&fs->fs_lock);
	int r = set_size(fs, ef->ef_ino, size);
	mutex_unlock(&fs->fs_lock);
	return r;
}

/* ef_fsync: the whole file system is written and waited for: this file's data and metadata with it. */
static int ef_fsync(struct file *f)
{
	return ext2_sync(ef_of(f)->ef_fs);
}

/* dir_entry_at: the next live entry at or after byte *pos of directory ino; 1, 0 (end) or an error. */
static int dir_entry_at(struct ext2fs *fs, uint32_t ino, uint64_t *pos, struct file_dirent *de)
{
	struct e2ino in;
	int err = iget(fs, ino, &in);

	if (err < 0)
		return err;
	while (*pos < in.i_size) {
		uint64_t lb = *pos / fs->fs_bsize;
		uint32_t off = (uint32_t)(*pos % fs->fs_bsize), pblk;
		if ((err = bmap(fs, ino, &in, lb, false, &pblk)) < 0)
			return err;
		if (pblk == 0) {
			*pos = (lb + 1) * fs->fs_bsize;
			continue;
		}
		struct bcbuf *bb = bread(fs->fs_bc, pblk, NULL, 0, pblk, &err);
		if (bb == NULL)
			return err;
		const uint8_t *d = bb->bb_data + off;
		if (!dent_ok(fs, d, off)) {
			brelse(bb);
			return corrupt(fs, "directory entry in inode", ino);
		}
		*pos += get16(d + 4);
		uint32_t eino = get32(d);
		if (eino == 0) {
			brelse(bb);
			continue;
		}
		de->de_ino = eino;
		memcpy(de->de_name, d + 8, d[6]);
		de->de_name[d[6]] = '\0';
		uint8_t t = d[7];
		brelse(bb);
		if (!fs->fs_filetype || t == 0) {
			struct e2ino ei;
			t = iget(fs, eino, &ei) == 0 ? dt_of_mode(ei.i_mode) : 0;
		}
		static const uint8_t dt[8] = { 0, FILE_DT_REG, FILE_DT_DIR, FILE_DT_CHR, 6, FILE_DT_FIFO, 12, 10 };
		de->de_type = t < 8 ? dt[t] : 0;
		return 1;
	}
	return 0;
}

static int ef_readdir(struct file *f, uint64_t idx, struct file_dirent *de)
{
	struct e2file *ef = ef_of(f);
	struct ext2fs *fs = ef->ef_fs;
	int r = 1;

	mutex_lock(&fs->fs_lock);
	if (idx < ef->ef_rd_idx) {                 /* rewound: start again */
		ef->ef_rd_idx = 0;
		ef->ef_rd_off = 0;
	}
	while (r == 1 && ef->ef_rd_idx <= idx) {
		r = dir_entry_at(fs, ef->ef_ino, &ef->ef_rd_off, de);
		if (r == 1)
			ef->ef_rd_idx++;
	}
	mutex_unlock(&fs->fs_lock);
	return r;
}

static void ef_release(struct file *f)
{
	struct e2file *ef = ef_of(f);
	struct ext2fs *fs = ef->ef_fs;

	mutex_lock(&fs->fs_lock);
	node_release(fs, ef->ef_ino);
	mutex_unlock(&fs->fs_lock);
	kfree(ef);
	kfree(f);
}

static const struct file_ops ext2_file_ops = {
	.fo_read = ef_read, .fo_write = ef_write, .fo_release = ef_release, .fo_size = ef_size,
	.fo_stat = ef_stat, .fo_truncate = ef_truncate, .fo_fsync = ef_fsync,
	.fo_mode = FILE_S_IFREG,
};

static const struct file_ops ext2_dir_ops = {
	.fo_read = ef_read, .fo_release = ef_release, .fo_readdir = ef_readdir, .fo_stat = ef_stat,
	.fo_fsync = ef_fsync, .fo_mode = FILE_S_IFDIR,
};

/* --- calls that make things ------------------------------------------------------------------- */

/* make_node: a new inode of mode linked as name in dino (a directory: with "." and "..").  Its number in *out. */
static int make_node(struct ext2fs *fs, uint32_t dino, const char *name, size_t len, uint16_t mode,
                     uint32_t *out)
{
	bool dir = (mode & S_IFMT) == S_IFDIR;
	uint32_t ino = 0, blk = 0;
	int err = ialloc(fs, ino_group(fs, dino), dir, &ino);

	if (err < 0)
		return err;
	struct e2ino in = { .i_mode = mode, .i_links = dir ? 2 : 1 };
	in.i_atime = in.i_ctime = in.i_mtime = now_sec();
	if (dir) {
		if ((err = balloc(fs, ino_group(fs, ino), &blk)) < 0) {
			ifree(fs, ino, true);
			return err;
		}
		struct bcbuf *bb = bread(fs->fs_bc, blk, NULL, 0, blk, &err);
		if (bb == NULL) {
			bfree(fs, blk);
			ifree(fs, ino, true);
			return err;
		}
		dent_put(fs, bb->bb_data, ino, 12, ".", 1, S_IFDIR);
		dent_put(fs, bb->bb_data + 12, dino, (uint16_t)(fs->fs_bsize - 12), "..", 2, S_IFDIR);
		bdirty(bb);
		brelse(bb);
		in.i_block[0] = blk;
		in.i_blocks = fs->fs_bsize / 512;
		in.i_size = fs->fs_bsize;
	}
	if ((err = iput(fs, ino, &in, true)) < 0 ||
	    (err = dir_add(fs, dino, name, len, ino, mode)) < 0) {
		if (blk != 0)
			bfree(fs, blk);
		in = (struct e2ino){ .i_dtime = now_sec() };
		iput(fs, ino, &in, true);
		ifree(fs, ino, dir);
		return err;
	}
	if (dir) {
		struct e2ino din;
		if ((err = iget(fs, dino, &din)) == 0) {
			din.i_links++;
			err = iput(fs, dino, &din, false);
		}
	}
	*out = ino;
	return err;
}

static int open_ino(struct ext2fs *fs, uint32_t ino, const char *rel, bool dir, int flags,
                    struct file **out)
{
	struct e2file *ef = kzalloc(sizeof(*ef));
	struct file *f = kzalloc(sizeof(*f));

	if (ef == NULL || f == NULL || node_hold(fs, ino) < 0) {
		kfree(ef);
		kfree(f);
		return -ENOMEM;
	}
	ef->ef_fs = fs;
	ef->ef_ino = ino;
	ef->ef_dir = dir;
	ksnprintf(ef->ef_path, sizeof(ef->ef_path), "%s/%s", fs->fs_prefix, rel);
	*f = (struct file){ .f_ops = dir ? &ext2_dir_ops : &ext2_file_ops, .f_refs = 1, .f_priv = ef,
	                    .f_flags = flags };
	*out = f;
	return 0;
}

static int do_open(struct ext2fs *fs, const char *rel, int flags, struct file **out)
{
	uint32_t dino = 0, ino = 0;
	const char *name;
	size_t len;
	bool writing = (flags & FILE_O_ACCMODE) != 0 || (flags & FILE_O_TRUNC);
	int err = walk(fs, rel, true, &dino, &name, &len);

	if (err == -EBUSY)                         /* the root */
		return writing ? -EISDIR : open_ino(fs, EXT2_ROOT, rel, true, flags, out);
	if (err < 0)
		return err;
	struct dloc loc;
	err = dir_find(fs, dino, name, len, &loc);
	if (err == -ENOENT && (flags & FILE_O_CREAT)) {
		if (flags & FILE_O_DIRECTORY)
			return -EISDIR;
		if (fs->fs_ro)
			return -EROFS;
		if ((err = make_node(fs, dino, name, len, S_IFREG | 0644, &ino)) < 0)
			return err;
		return open_ino(fs, ino, rel, false, flags, out);
	}
	if (err < 0)
		return err;
	if ((flags & FILE_O_CREAT) && (flags & FILE_O_EXCL))
		return -EEXIST;
	struct e2ino in;
	if ((err = iget(fs, loc.dl_ino, &in)) < 0)
		return err;
	uint16_t type = in.i_mode & S_IFMT;
	if (type == S_IFDIR)
		return writing ? -EISDIR : open_ino(fs, loc.dl_ino, rel, true, flags, out);
	if (flags & FILE_O_DIRECTORY)
		return -ENOTDIR;
	if (type != S_IFREG)
		return type == S_IFLNK ? -ELOOP_ : -EINVAL;
	if (writing && fs->fs_ro)
		return -EROFS;
	if ((flags & FILE_O_TRUNC) && in.i_size != 0 && (err = set_size(fs, loc.dl_ino, 0)) < 0)
		return err;
	return open_ino(fs, loc.dl_ino, rel, false, flags, out);
}

int ext2_open(struct ext2fs *fs, const char *rel, int flags, struct file **out)
{
	mutex_lock(&fs->fs_lock);
	int r = do_open(fs, rel, flags, out);
	mutex_unlock(&fs->fs_lock);
	return r;
}

int ext2_stat(struct ext2fs *fs, const char *rel, struct file_stat *st)
{
	uint32_t ino = 0;

	mutex_lock(&fs->fs_lock);
	int r = walk(fs, rel, false, &ino, NULL, NULL);
	if (r == 0)
		ef_stat_ino(fs, ino, st);
	mutex_unlock(&fs->fs_lock);
	return r;
}

int ext2_mkdir(struct ext2fs *fs, const char *rel)
{
	uint32_t dino = 0, ino = 0;
	const char *name;
	size_t len;
	struct dloc loc;

	mutex_lock(&fs->fs_lock);
	int r = walk(fs, rel, true, &dino, &name, &len);
	if (r == -EBUSY)
		r = -EEXIST;
	if (r == 0) {
		r = dir_find(fs, dino, name, len, &loc);
		r = r == 0 ? -EEXIST : r != -ENOENT ? r : fs->fs_ro ? -EROFS
		  : make_node(fs, dino, name, len, S_IFDIR | 0755, &ino);
	}
	mutex_unlock(&fs->fs_lock);
	return r;
}

/* --- calls that take things away ---------------------------------------------------------------- */

/* do_remove: unlink (want_dir false) or rmdir of rel. */
static int do_remove(struct ext2fs *fs, const char *rel, bool want_dir)
{
	uint32_t dino = 0;
	const char *name;
	size_t len;
	struct dloc loc;
	struct e2ino in;
	int err = walk(fs, rel, true, &dino, &name, &len);

	if (err < 0)
		return err == -EBUSY && !want_dir ? -EISDIR : err;
	if ((err = dir_find(fs, dino, name, len, &loc)) < 0 || (err = iget(fs, loc.dl_ino, &in)) < 0)
		return err;
	bool isdir = (in.i_mode & S_IFMT) == S_IFDIR;
	if (want_dir && !isdir)
		return -ENOTDIR;
	if (!want_dir && isdir)
		return -EISDIR;
	if (want_dir && ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')))
		return -EINVAL;
	if (fs->fs_ro)
		return -EROFS;
	if (isdir && (err = dir_empty(fs, loc.dl_ino)) <= 0)
		return err < 0 ? err : -ENOTEMPTY;
	if ((err = dir_remove(fs, dino, &loc)) < 0)
		return err;
	if (isdir) {                               /* its ".." no longer links the parent */
		struct e2ino din;
		if (iget(fs, dino, &din) == 0 && din.i_links > 1) {
			din.i_links--;
			iput(fs, dino, &din, false);
		}
	}
	return link_drop(fs, loc.dl_ino, isdir ? 2 : 1);
}

int ext2_unlink(struct ext2fs *fs, const char *rel)
{
	mutex_lock(&fs->fs_lock);
	int r = do_remove(fs, rel, false);
	mutex_unlock(&fs->fs_lock);
	return r;
}

int ext2_rmdir(struct ext2fs *fs, const char *rel)
{
	mutex_lock(&fs->fs_lock);
	int r = do_remove(fs, rel, true);
	mutex_unlock(&fs->fs_lock);
	return r;
}

/* is_ancestor: is directory a on the way from d up to the root? */
static int is_ancestor(struct ext2fs *fs, uint32_t a, uint32_t d)
{
	for (int hops = 0; hops < 4096; hops++) {
		if (d == a)
			return 1;
		if (d == EXT2_ROOT)
			return 0;
		struct dloc loc;
		int err = dir_find(fs, d, "..", 2, &loc);
		if (err < 0)
			return err;
		d = loc.dl_ino;
	}
	return corrupt(fs, "directory loop at inode", d);
}

static int do_rename(struct ext2fs *fs, const char *from, const char *to)
{
	uint32_t fdir = 0, tdir = 0;
	const char *fname, *tname;
	size_t flen, tlen;
	struct dloc floc, tloc;
	struct e2ino in, tin;
	int err;

	if ((err = walk(fs, from, true, &fdir, &fname, &flen)) < 0 ||
	    (err = walk(fs, to, true, &tdir, &tname, &tlen)) < 0)
		return err;
	if ((err = dir_find(fs, fdir, fname, flen, &floc)) < 0 || (err = iget(fs, floc.dl_ino, &in)) < 0)
		return err;
	bool isdir = (in.i_mode & S_IFMT) == S_IFDIR;
	err = dir_find(fs, tdir, tname, tlen, &tloc);
	if (err < 0 && err != -ENOENT)
		return err;
	bool exists = err == 0;
	if (exists && tloc.dl_ino == floc.dl_ino)
		return 0;                              /* the same file: nothing to do */
	if (fs->fs_ro)
		return -EROFS;
	if (isdir && (err = is_ancestor(fs, floc.dl_ino, tdir)) != 0)
		return err < 0 ? err : -EINVAL;
	if (exists) {
		if ((err = iget(fs, tloc.dl_ino, &tin)) < 0)
			return err;
		bool tdirp = (tin.i_mode & S_IFMT) == S_IFDIR;
		if (isdir && !tdirp)
			return -ENOTDIR;
		if (!isdir && tdirp)
			return -EISDIR;
		if (tdirp && (err = dir_empty(fs, tloc.dl_ino)) <= 0)
			return err < 0 ? err : -ENOTEMPTY;
		/* point the target's entry at the source: no space needed */
		struct bcbuf *bb = bread(fs->fs_bc, tloc.dl_pblk, NULL, 0, tloc.dl_pblk, &err);
		if (bb == NULL)
			return err;
		put32(bb->bb_data + tloc.dl_off, floc.dl_ino);
		if (fs->fs_filetype)
			bb->bb_data[tloc.dl_off + 7] = dt_of_mode(in.i_mode);
		bdirty(bb);
		brelse(bb);
		if (tdirp) {
			struct e2ino din;
			if (iget(fs, tdir, &din) == 0 && din.i_links > 1) {
				din.i_links--;             /* the old target's ".." */
				iput(fs, tdir, &din, false);
			}
		}
		link_drop(fs, tloc.dl_ino, tdirp ? 2 : 1);
	} else if ((err = dir_add(fs, tdir, tname, tlen, floc.dl_ino, in.i_mode)) < 0) {
		return err;
	}
	/* the source's entry may have moved if it shared a block with the new one: find it again */
	if ((err = dir_find(fs, fdir, fname, flen, &floc)) < 0 || (err = dir_remove(fs, fdir, &floc)) < 0)
		return err;
	if (isdir && fdir != tdir) {
		struct e2ino d;
		if ((err = dir_set_dotdot(fs, floc.dl_ino, tdir)) < 0)
			return err;
		if (iget(fs, fdir, &d) == 0 && d.i_links > 1) {
			d.i_links--;
			iput(fs, fdir, &d, false);
		}
		if (iget(fs, tdir, &d) == 0) {
			d.i_links++;
			iput(fs, tdir, &d, false);
		}
	}
	if (iget(fs, floc.dl_ino, &in) == 0) {
		in.i_ctime = now_sec();
		iput(fs, floc.dl_ino, &in, false);
	}
	return 0;
}

int ext2_rename(struct ext2fs *fs, const char *from, const char *to)
{
	mutex_lock(&fs->fs_lock);
	int r = do_rename(fs, from, to);
	mutex_unlock(&fs->fs_lock);
	return r;
}

int ext2_sync(struct ext2fs *fs)
{
	mutex_lock(&fs->fs_lock);
	int r = bcache_sync(fs->fs_bc);
	mutex_unlock(&fs->fs_lock);
	return r;
}

void ext2_info(struct ext2fs *fs, struct ext2_info *ei)
{
	mutex_lock(&fs->fs_lock);
	*ei = (struct ext2_info){ .ei_bsize = fs->fs_bsize, .ei_blocks = fs->fs_nblocks,
	                          .ei_bfree = get32(fs->fs_sb + SB_FREE_B),
	                          .ei_inodes = fs->fs_ninodes, .ei_ifree = get32(fs->fs_sb + SB_FREE_I) };
	mutex_unlock(&fs->fs_lock);
}

bool ext2_readonly(struct ext2fs *fs)
{
	return fs->fs_ro;
}

/* --- mounting ----------------------------------------------------------------------------------- */

bool ext2_probe(struct blkdev *bd)
{
	uint8_t *sb = kmalloc(1024);
	bool ok = sb != NULL && bd->bd_nsect >= 4 && blk_rw(bd, 2, sb, 1024, false) == 0 &&
	          get16(sb + SB_MAGIC) == EXT2_MAGIC;

	kfree(sb);
	return ok;
}

/* sb_check: is the superblock one this file can mount?  0, or -EINVAL with a kprintf line. */
static int sb_check(struct ext2fs *fs, const char *dev)
{
	const uint8_t *sb = fs->fs_sb;
	uint32_t rev = get32(sb + SB_REV), log = get32(sb + SB_LOG_BSIZE);
	const char *why = NULL;

	if (get16(sb + SB_MAGIC) != EXT2_MAGIC)
		why = "no ext2 superblock (bad magic)";
	else if (rev > 1)
		why = "unknown revision";
	else if (log > 2)
		why = "block size over 4096";
	if (why != NULL)
		goto bad;
	fs->fs_bsize = 1024u << log;
	fs->fs_nblocks = get32(sb + SB_BLOCKS);
	fs->fs_ninodes = get32(sb + SB_INODES);
	fs->fs_bpg = get32(sb + SB_BPG);
	fs->fs_ipg = get32(sb + SB_IPG);
	fs->fs_first_data = get32(sb + SB_FIRST_DATA);
	fs->fs_isize = rev == 0 ? 128 : get16(sb + SB_INODE_SIZE);
	fs->fs_first_ino = rev == 0 ? 11 : get32(sb + SB_FIRST_INO);
	fs->fs_ptrs = fs->fs_bsize / 4;
	if (fs->fs_bpg == 0 || fs->fs_bpg > 8 * fs->fs_bsize || fs->fs_ipg == 0 ||
	    fs->fs_ipg > 8 * fs->fs_bsize || fs->fs_first_data != (fs->fs_bsize == 1024 ? 1u : 0u) ||
	    fs->fs_nblocks <= fs->fs_first_data + 1) {
		why = "bad block or inode counts";
		goto bad;
	}
	fs->fs_ngroups = (fs->fs_nblocks - fs->fs_first_data + fs->fs_bpg - 1) / fs->fs_bpg;
	if ((uint64_t)fs->fs_ngroups * fs->fs_ipg != fs->fs_ninodes ||
	    fs->fs_isize < 128 || fs->fs_isize > fs->fs_bsize || (fs->fs_isize & (fs->fs_isize - 1)) ||
	    fs->fs_first_ino < 11 || fs->fs_first_ino > fs->fs_ipg ||
	    get32(sb + SB_FREE_B) > fs->fs_nblocks || get32(sb + SB_FREE_I) > fs->fs_ninodes) {
		why = "bad block or inode counts";
		goto bad;
	}
	if ((uint64_t)fs->fs_nblocks * fs->fs_bsize > fs->fs_dev->bd_nsect * BLK_SECTOR) {
		kprintf("ext2: %s: the file system claims %u blocks of %u bytes, the disk has %llu bytes: not mounted\n",
		        dev, fs->fs_nblocks, fs->fs_bsize,
		        (unsigned long long)(fs->fs_dev->bd_nsect * BLK_SECTOR));
		return -EINVAL;
	}
	uint32_t incompat = rev > 0 ? get32(sb + SB_INCOMPAT) : 0;
	uint32_t ro = rev > 0 ? get32(sb + SB_RO_COMPAT) : 0;
	if (incompat & ~(uint32_t)INCOMPAT_OK) {
		kprintf("ext2: %s: unsupported incompatible features 0x%x: not mounted\n", dev,
		        incompat & ~(uint32_t)INCOMPAT_OK);
		return -EINVAL;
	}
	if (ro & ~(uint32_t)RO_COMPAT_OK) {
		kprintf("ext2: %s: unsupported read-only-compatible features 0x%x: mounted read-only\n",
		        dev, ro & ~(uint32_t)RO_COMPAT_OK);
		fs->fs_ro = true;
	}
	if (fs->fs_dev->bd_readonly)
		fs->fs_ro = true;
	fs->fs_filetype = incompat & INCOMPAT_FILETYPE;
	uint64_t p = fs->fs_ptrs, tree = EXT2_NDIR + p + p * p + p * p * p;
	fs->fs_maxsize = (ro & RO_LARGE_FILE) ? tree * fs->fs_bsize : MIN(tree * fs->fs_bsize, 0x7fffffffULL);
	return 0;
bad:
	kprintf("ext2: %s: %s: not mounted\n", dev, why);
	return -EINVAL;
}

/* gd_check: every group's bitmaps and inode table lie inside the file system. */
static int gd_check(struct ext2fs *fs, const char *dev)
{
	uint64_t itblocks = ((uint64_t)fs->fs_ipg * fs->fs_isize + fs->fs_bsize - 1) / fs->fs_bsize;

	for (uint32_t g = 0; g < fs->fs_ngroups; g++) {
		uint32_t bb = get32(gd(fs, g)), ib = get32(gd(fs, g) + 4), it = get32(gd(fs, g) + 8);
		if (bb < fs->fs_first_data || bb >= fs->fs_nblocks || ib < fs->fs_first_data ||
		    ib >= fs->fs_nblocks || it < fs->fs_first_data || it + itblocks > fs->fs_nblocks ||
		    get16(gd(fs, g) + 12) > group_blocks(fs, g) || get16(gd(fs, g) + 14) > fs->fs_ipg) {
			kprintf("ext2: %s: group %u's descriptor is corrupt: not mounted\n", dev, g);
			return -EINVAL;
		}
	}
	return 0;
}

int ext2_mount(struct blkdev *bd, const char *prefix, struct ext2fs **out)
{
	struct ext2fs *fs = kzalloc(sizeof(*fs));
	const char *dev = bd->bd_statname[0] != '\0' ? bd->bd_statname : bd->bd_name;
	int err;

	if (fs == NULL)
		return -ENOMEM;
	fs->fs_dev = bd;
	mutex_init(&fs->fs_lock, "ext2");
	kstrlcpy(fs->fs_prefix, prefix, sizeof(fs->fs_prefix));
	if (bd->bd_nsect < 4) {
		kprintf("ext2: %s: the disk is too small for a file system: not mounted\n", dev);
		kfree(fs);
		return -EINVAL;
	}
	uint8_t *raw = kmalloc(1024);
	if (raw == NULL) {
		kfree(fs);
		return -ENOMEM;
	}
	if ((err = blk_rw(bd, 2, raw, 1024, false)) < 0) {
		kprintf("ext2: %s: cannot read the superblock (error %d): not mounted\n", dev, -err);
		kfree(raw);
		kfree(fs);
		return -EIO;
	}
	memcpy(fs->fs_sb, raw, 1024);
	kfree(raw);
	if ((err = sb_check(fs, dev)) < 0) {
		kfree(fs);
		return err;
	}
	fs->fs_bc = bcache_create(bd, fs->fs_bsize, EXT2_CACHE_BUFS * 1024 / fs->fs_bsize);
	fs->fs_gd = kzalloc((size_t)fs->fs_ngroups * 32);
	if (fs->fs_bc == NULL || fs->fs_gd == NULL) {
		bcache_destroy(fs->fs_bc);
		kfree(fs->fs_gd);
		kfree(fs);
		return -ENOMEM;
	}
	uint32_t per = fs->fs_bsize / 32;
	for (uint32_t g = 0; g < fs->fs_ngroups; g += per) {
		uint64_t blk = fs->fs_first_data + 1 + g / per;
		struct bcbuf *bb = bread(fs->fs_bc, blk, NULL, 0, blk, &err);
		if (bb == NULL) {
			kprintf("ext2: %s: cannot read the group descriptors: not mounted\n", dev);
			break;
		}
		memcpy(fs->fs_gd + (size_t)g * 32, bb->bb_data, (size_t)MIN(per, fs->fs_ngroups - g) * 32);
		brelse(bb);
	}
	if (err < 0 || (err = gd_check(fs, dev)) < 0) {
		bcache_destroy(fs->fs_bc);
		kfree(fs->fs_gd);
		kfree(fs);
		return err == -EINVAL ? err : -EIO;
	}
	*out = fs;
	return 0;
}

void ext2_unmount(struct ext2fs *fs)
{
	if (fs == NULL)
		return;
	ext2_sync(fs);
	while (fs->fs_nodes != NULL) {
		struct e2node *n = fs->fs_nodes;
		fs->fs_nodes = n->n_next;
		kfree(n);
	}
	bcache_destroy(fs->fs_bc);
	kfree(fs->fs_gd);
	kfree(fs);
}
