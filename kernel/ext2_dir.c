/*
 * ext2_dir.c - ext2's directories and path walks (the middle layer of the
 * driver: kernel/ext2_impl.h says how the three files divide it).
 *
 * A directory is a list of variable-length entries in blocks; an entry is
 * added in the slack of one (or a new block appended) and removed by
 * growing the previous entry over it (or zeroing its inode, first in a
 * block).  Every record is validated (length, alignment, name length) before
 * it is used; a corrupt one is EIO with a message.
 *
 * Context: thread context, under the mount's fs_lock.
 *
 * Tests: tests/unit/kernel_ext2_test.c; tests/e2e/test_disk.py
 */
#include "kernel/ext2_impl.h"
#include "kernel/klib.h"
#include "kernel/proc.h"          /* errno values */

/* --- directories ---------------------------------------------------------------------------- */

/* e2_dent_ok: is the record at off of a block sane? */
bool e2_dent_ok(struct ext2fs *fs, const uint8_t *d, uint32_t off)
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
		if ((err = e2_bmap(fs, dino, in, lb, false, &pblk)) < 0)
			return err;
		if (pblk == 0)
			continue;
		struct bcbuf *bb = bread(fs->fs_bc, pblk, NULL, 0, pblk, &err);
		if (bb == NULL)
			return err;
		uint32_t prev = 0;
		for (uint32_t off = 0; off < fs->fs_bsize; ) {
			const uint8_t *d = bb->bb_data + off;
			if (!e2_dent_ok(fs, d, off)) {
				brelse(bb);
				return e2_corrupt(fs, "directory entry in inode", dino);
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

/* The name e2_dir_find looks for, and where it was found. */
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
 * e2_dir_find: the entry called name (len bytes) in directory ino.  0 and
 * *loc, -ENOENT, or another error.
 */
int e2_dir_find(struct ext2fs *fs, uint32_t dino, const char *name, size_t len, struct dloc *loc)
{
	struct e2ino in;
	int err = e2_iget(fs, dino, &in);

	if (err < 0)
		return err;
	if ((in.i_mode & S_IFMT) != S_IFDIR)
		return -ENOTDIR;
	struct find_arg fa = { name, len, loc };
	err = dir_scan(fs, dino, &in, find_one, &fa);
	return err == 1 ? 0 : err < 0 ? err : -ENOENT;
}

uint8_t e2_dt_of_mode(uint16_t mode)
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

void e2_dent_put(struct ext2fs *fs, uint8_t *d, uint32_t ino, uint16_t rec, const char *name,
                 size_t len, uint16_t mode)
{
	put32(d, ino);
	put16(d + 4, rec);
	d[6] = (uint8_t)len;
	d[7] = fs->fs_filetype ? e2_dt_of_mode(mode) : 0;
	memcpy(d + 8, name, len);
}

/* dir_touch: the directory changed: times, and its hash index (if any) is no longer right. */
static void dir_touch(struct e2ino *din)
{
	din->i_flags &= ~(uint32_t)EXT2_INDEX_FL;
	din->i_mtime = din->i_ctime = e2_now_sec();
}

/* The entry e2_dir_add puts in. */
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
	e2_dent_put(fs, d, aa->aa_ino, (uint16_t)(rec - used), aa->aa_name, aa->aa_len, aa->aa_mode);
	bdirty(bb);
	return 1;
}

/* e2_dir_add: an entry name -> ino (of mode) in directory dino.  0, -ENOSPC, -EIO. */
int e2_dir_add(struct ext2fs *fs, uint32_t dino, const char *name, size_t len, uint32_t ino,
               uint16_t mode)
{
	struct e2ino din;
	int err = e2_iget(fs, dino, &din);

	if (err < 0)
		return err;
	struct add_arg aa = { name, len, ino, (uint32_t)ALIGN_UP(8 + len, 4), mode };
	if ((err = dir_scan(fs, dino, &din, add_into, &aa)) != 0) {
		if (err < 0)
			return err;
		dir_touch(&din);
		return e2_iput(fs, dino, &din, false);
	}
	uint64_t nblk = din.i_size / fs->fs_bsize;
	/* no room: a new block at the end */
	uint32_t pblk;
	struct e2ino save = din;
	if ((err = e2_bmap(fs, dino, &din, nblk, true, &pblk)) < 0) {
		/* an indirect block may have been taken: give back what the failed map took */
		e2_blocks_free_from(fs, &din, nblk);
		if (din.i_blocks != save.i_blocks)
			e2_iput(fs, dino, &din, false);
		return err;
	}
	struct bcbuf *bb = bread(fs->fs_bc, pblk, NULL, 0, pblk, &err);
	if (bb == NULL)
		return err;
	memset(bb->bb_data, 0, fs->fs_bsize);
	e2_dent_put(fs, bb->bb_data, ino, (uint16_t)fs->fs_bsize, name, len, mode);
	bdirty(bb);
	brelse(bb);
	din.i_size += fs->fs_bsize;
	dir_touch(&din);
	return e2_iput(fs, dino, &din, false);
}

/* e2_dir_remove: take out the entry at *loc of directory dino. */
int e2_dir_remove(struct ext2fs *fs, uint32_t dino, const struct dloc *loc)
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
	if ((err = e2_iget(fs, dino, &din)) < 0)
		return err;
	dir_touch(&din);
	return e2_iput(fs, dino, &din, false);
}

/* e2_dir_set_dotdot: directory ino's ".." now names parent. */
int e2_dir_set_dotdot(struct ext2fs *fs, uint32_t ino, uint32_t parent)
{
	struct dloc loc;
	int err = e2_dir_find(fs, ino, "..", 2, &loc);
	struct bcbuf *bb;

	if (err < 0)
		return err == -ENOENT ? e2_corrupt(fs, "no .. in directory", ino) : err;
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

/* e2_dir_empty: does directory ino hold nothing but "." and ".."?  1, 0 or an error. */
int e2_dir_empty(struct ext2fs *fs, uint32_t dino)
{
	struct e2ino in;
	int err = e2_iget(fs, dino, &in);

	if (err < 0)
		return err;
	err = dir_scan(fs, dino, &in, not_dot, NULL);
	return err < 0 ? err : err == 0;
}

/* --- paths ------------------------------------------------------------------------------------ */

/*
 * e2_walk: the inode of rel, or with parent, of rel's directory, the last
 * name's start in *last (its length in *lastlen).  0 or -ENOENT,
 * -ENOTDIR, -ENAMETOOLONG, -EIO.
 */
int e2_walk(struct ext2fs *fs, const char *rel, bool parent, uint32_t *ino, const char **last,
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
		int err = e2_dir_find(fs, cur, p, n, &loc);
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
