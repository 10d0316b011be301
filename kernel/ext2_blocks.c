/*
 * ext2_blocks.c - ext2's bytes on disk: the superblock and group
 * descriptors, inodes, the bitmaps, block maps and file contents (the
 * lowest layer of the driver: kernel/ext2_impl.h says how the three files
 * divide it, kernel/ext2.c has the theory of the whole).
 *
 * Every change to the superblock or a group descriptor is copied at once
 * into its cached block and marked dirty; every bit taken or given back
 * moves the bitmap, the group's free count and the superblock's together
 * (what e2fsck's pass 5 compares).
 *
 * Context: thread context, under the mount's fs_lock.
 *
 * Tests: tests/unit/kernel_ext2_test.c (e2fsck -fn after each step)
 */
#include "kernel/ext2_impl.h"
#include "kernel/klib.h"
#include "kernel/proc.h"          /* errno values */
#include "kernel/time.h"

/* --- bytes --------------------------------------------------------------------------------- */


uint32_t e2_now_sec(void)
{
#ifdef SONDE_HOST
	return 1700000000u;
#else
	return (uint32_t)(ktime_wall_ns(ktime_ns()) / 1000000000ULL);
#endif
}

int e2_corrupt(struct ext2fs *fs, const char *what, uint64_t n)
{
	kprintf("ext2: %s: corrupt file system: %s %llu\n", fs->fs_dev->bd_statname, what,
	        (unsigned long long)n);
	return -EIO;
}

/* --- superblock and group descriptors ------------------------------------------------------ */


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
		return e2_corrupt(fs, "inode number", ino);
	uint32_t g = (ino - 1) / fs->fs_ipg, idx = (ino - 1) % fs->fs_ipg;
	uint64_t byte = (uint64_t)idx * fs->fs_isize;
	*blk = get32(gd(fs, g) + 8) + byte / fs->fs_bsize;
	*off = (uint32_t)(byte % fs->fs_bsize);
	return 0;
}

/* inode_block: inode ino's block, held, and its offset there; NULL with *err set. */
static struct bcbuf *inode_block(struct ext2fs *fs, uint32_t ino, uint32_t *off, int *err)
{
	uint64_t blk;

	*err = ino_loc(fs, ino, &blk, off);
	return *err == 0 ? bread(fs->fs_bc, blk, NULL, 0, blk, err) : NULL;
}

int e2_iget(struct ext2fs *fs, uint32_t ino, struct e2ino *ip)
{
	uint32_t off;
	int err;
	struct bcbuf *bb = inode_block(fs, ino, &off, &err);

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

/* e2_iput: *ip into inode ino; fresh: the whole on-disk inode zeroed first (a new inode). */
int e2_iput(struct ext2fs *fs, uint32_t ino, const struct e2ino *ip, bool fresh)
{
	uint32_t off;
	int err;
	struct bcbuf *bb = inode_block(fs, ino, &off, &err);

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

uint32_t e2_group_blocks(struct ext2fs *fs, uint32_t g)
{
	uint32_t start = fs->fs_first_data + g * fs->fs_bpg;
	return MIN(fs->fs_bpg, fs->fs_nblocks - start);
}

/* e2_balloc: a free block, zeroed in the cache; near group g.  0 or -ENOSPC, -EIO. */
int e2_balloc(struct ext2fs *fs, uint32_t g0, uint32_t *out)
{
	if (get32(fs->fs_sb + SB_FREE_B) == 0)
		return -ENOSPC;
	for (uint32_t k = 0; k < fs->fs_ngroups; k++) {
		uint32_t g = (g0 + k) % fs->fs_ngroups;
		if (get16(gd(fs, g) + 12) == 0)
			continue;
		int64_t i = bit_take(fs, get32(gd(fs, g)), e2_group_blocks(fs, g), 0);
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

void e2_bfree(struct ext2fs *fs, uint32_t blk)
{
	if (blk < fs->fs_first_data || blk >= fs->fs_nblocks) {
		e2_corrupt(fs, "block number freed", blk);
		return;
	}
	uint32_t g = (blk - fs->fs_first_data) / fs->fs_bpg;
	int r = bit_clear(fs, get32(gd(fs, g)), (blk - fs->fs_first_data) % fs->fs_bpg);
	if (r == 0)
		count_add(fs, g, 12, SB_FREE_B, 1);
	else if (r == 1)
		e2_corrupt(fs, "block freed twice", blk);
	bcache_invalidate(fs->fs_bc, blk);
}

/* e2_ialloc: a free inode near group g0.  0 or -ENOSPC, -EIO. */
int e2_ialloc(struct ext2fs *fs, uint32_t g0, bool dir, uint32_t *out)
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

void e2_ifree(struct ext2fs *fs, uint32_t ino, bool dir)
{
	uint32_t g = (ino - 1) / fs->fs_ipg;
	int r = bit_clear(fs, get32(gd(fs, g) + 4), (ino - 1) % fs->fs_ipg);

	if (r == 0) {
		count_add(fs, g, 14, SB_FREE_I, 1);
		if (dir)
			dirs_add(fs, ino, -1);
	} else if (r == 1) {
		e2_corrupt(fs, "inode freed twice", ino);
	}
}

/* --- block maps ---------------------------------------------------------------------------- */


static int check_blk(struct ext2fs *fs, uint32_t b)
{
	return b != 0 && (b < fs->fs_first_data || b >= fs->fs_nblocks) ? e2_corrupt(fs, "block number", b) : 0;
}

/*
 * e2_bmap: the disk block of file block lblk of inode ino (*ip), 0 for a
 * hole; with alloc, holes (and the indirect blocks on the way) are
 * filled, *ip updated (the caller writes it).  0 or a negative errno.
 */
int e2_bmap(struct ext2fs *fs, uint32_t ino, struct e2ino *ip, uint64_t lblk, bool alloc,
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
		if ((err = e2_balloc(fs, ino_group(fs, ino), &blk)) < 0)
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
			if ((err = e2_balloc(fs, ino_group(fs, ino), &next)) < 0) {
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
		e2_bfree(fs, blk);
		ip->i_blocks -= MIN(ip->i_blocks, fs->fs_bsize / 512);
		*slot = 0;
	}
}

/* e2_blocks_free_from: free every block of *ip mapping file block from or later. */
void e2_blocks_free_from(struct ext2fs *fs, struct e2ino *ip, uint64_t from)
{
	uint64_t p = fs->fs_ptrs;

	for (uint64_t i = from; i < EXT2_NDIR; i++)
		free_tree(fs, ip, &ip->i_block[i], 0, i, from);
	free_tree(fs, ip, &ip->i_block[EXT2_IND], 1, EXT2_NDIR, from);
	free_tree(fs, ip, &ip->i_block[EXT2_DIND], 2, EXT2_NDIR + p, from);
	free_tree(fs, ip, &ip->i_block[EXT2_TIND], 3, EXT2_NDIR + p + p * p, from);
}

/* e2_has_blocks: does the inode's i_block hold block numbers (not a fast symlink's text)? */
bool e2_has_blocks(const struct e2ino *ip)
{
	return (ip->i_mode & S_IFMT) != S_IFLNK || ip->i_blocks != 0;
}

/* --- file contents -------------------------------------------------------------------------- */

int64_t e2_data_read(struct ext2fs *fs, uint32_t ino, const char *path, uint64_t off, void *buf,
                     size_t n)
{
	struct e2ino in;
	int err = e2_iget(fs, ino, &in);
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
		if ((err = e2_bmap(fs, ino, &in, lblk, false, &pblk)) < 0)
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

/* e2_data_write: n bytes at off; the inode's size grows to cover them.  Bytes written or an error. */
int64_t e2_data_write(struct ext2fs *fs, uint32_t ino, const char *path, uint64_t off,
                      const void *buf, size_t n)
{
	struct e2ino in;
	int err = e2_iget(fs, ino, &in);
	size_t done = 0;

	if (err < 0)
		return err;
	if (off >= fs->fs_maxsize || n > fs->fs_maxsize - off)
		return off >= fs->fs_maxsize ? -EFBIG : e2_data_write(fs, ino, path, off, buf, (size_t)(fs->fs_maxsize - off));
	while (done < n) {
		uint64_t lblk = off / fs->fs_bsize;
		uint32_t boff = (uint32_t)(off % fs->fs_bsize), pblk;
		size_t run = MIN(n - done, (size_t)(fs->fs_bsize - boff));
		if ((err = e2_bmap(fs, ino, &in, lblk, true, &pblk)) < 0)
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
	in.i_mtime = in.i_ctime = e2_now_sec();
	int e2 = e2_iput(fs, ino, &in, false);
	if (done > 0)
		return (int64_t)done;
	return err < 0 ? err : e2;
}

/* e2_set_size: truncate(2) of inode ino to size (shrink frees blocks; grow leaves a hole). */
int e2_set_size(struct ext2fs *fs, uint32_t ino, uint64_t size)
{
	struct e2ino in;
	int err = e2_iget(fs, ino, &in);

	if (err < 0)
		return err;
	if (size > fs->fs_maxsize)
		return -EFBIG;
	if (size < in.i_size) {
		e2_blocks_free_from(fs, &in, (size + fs->fs_bsize - 1) / fs->fs_bsize);
		uint32_t tail = (uint32_t)(size % fs->fs_bsize), pblk;
		if (tail != 0 && e2_bmap(fs, ino, &in, size / fs->fs_bsize, false, &pblk) == 0 && pblk != 0) {
			struct bcbuf *bb = bread(fs->fs_bc, pblk, NULL, 0, pblk, &err);
			if (bb != NULL) {                 /* zeros past the end, for a later grow */
				memset(bb->bb_data + tail, 0, fs->fs_bsize - tail);
				bdirty(bb);
				brelse(bb);
			}
		}
	}
	in.i_size = size;
	in.i_mtime = in.i_ctime = e2_now_sec();
	return e2_iput(fs, ino, &in, false);
}
