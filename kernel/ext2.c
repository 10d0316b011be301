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
 * The driver is three files by layer (kernel/ext2_impl.h): ext2_blocks.c
 * (superblock, inodes, bitmaps, block maps, contents), ext2_dir.c
 * (directories and paths) and this one (open files, the public calls,
 * mounting).
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
#include "kernel/ext2_impl.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/proc.h"          /* errno values */
#include "kernel/time.h"

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

	if (e2_iget(fs, ino, &in) < 0)
		return;
	bool dir = (in.i_mode & S_IFMT) == S_IFDIR;
	if (e2_has_blocks(&in))
		e2_blocks_free_from(fs, &in, 0);
	in.i_size = 0;
	in.i_links = 0;
	in.i_dtime = e2_now_sec();
	e2_iput(fs, ino, &in, false);
	e2_ifree(fs, ino, dir);
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
	if (e2_iget(fs, ino, &in) == 0 && in.i_links == 0 && in.i_dtime == 0)
		ino_destroy(fs, ino);
}

/* link_drop: one name of ino gone: free it at zero links unless open. */
static int link_drop(struct ext2fs *fs, uint32_t ino, int drop)
{
	struct e2ino in;
	int err = e2_iget(fs, ino, &in);

	if (err < 0)
		return err;
	in.i_links = (uint16_t)(in.i_links > drop ? in.i_links - drop : 0);
	in.i_ctime = e2_now_sec();
	if ((err = e2_iput(fs, ino, &in, false)) < 0)
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
	int64_t r = e2_data_read(fs, ef->ef_ino, ef->ef_path, f->f_off, buf, n);
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
		if ((r = e2_iget(fs, ef->ef_ino, &in)) == 0)
			f->f_off = in.i_size;
	}
	r = e2_data_write(fs, ef->ef_ino, ef->ef_path, f->f_off, buf, n);
	mutex_unlock(&fs->fs_lock);
	if (r > 0)
		f->f_off += (uint64_t)r;
	return r;
}

static void ef_stat_ino(struct ext2fs *fs, uint32_t ino, struct file_stat *st)
{
	struct e2ino in;

	memset(st, 0, sizeof(*st));
	if (e2_iget(fs, ino, &in) < 0)
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
	int r = e2_set_size(fs, ef->ef_ino, size);
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
	int err = e2_iget(fs, ino, &in);

	if (err < 0)
		return err;
	while (*pos < in.i_size) {
		uint64_t lb = *pos / fs->fs_bsize;
		uint32_t off = (uint32_t)(*pos % fs->fs_bsize), pblk;
		if ((err = e2_bmap(fs, ino, &in, lb, false, &pblk)) < 0)
			return err;
		if (pblk == 0) {
			*pos = (lb + 1) * fs->fs_bsize;
			continue;
		}
		struct bcbuf *bb = bread(fs->fs_bc, pblk, NULL, 0, pblk, &err);
		if (bb == NULL)
			return err;
		const uint8_t *d = bb->bb_data + off;
		if (!e2_dent_ok(fs, d, off)) {
			brelse(bb);
			return e2_corrupt(fs, "directory entry in inode", ino);
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
			t = e2_iget(fs, eino, &ei) == 0 ? e2_dt_of_mode(ei.i_mode) : 0;
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
	int err = e2_ialloc(fs, ino_group(fs, dino), dir, &ino);

	if (err < 0)
		return err;
	struct e2ino in = { .i_mode = mode, .i_links = dir ? 2 : 1 };
	in.i_atime = in.i_ctime = in.i_mtime = e2_now_sec();
	if (dir) {
		if ((err = e2_balloc(fs, ino_group(fs, ino), &blk)) < 0) {
			e2_ifree(fs, ino, true);
			return err;
		}
		struct bcbuf *bb = bread(fs->fs_bc, blk, NULL, 0, blk, &err);
		if (bb == NULL) {
			e2_bfree(fs, blk);
			e2_ifree(fs, ino, true);
			return err;
		}
		e2_dent_put(fs, bb->bb_data, ino, 12, ".", 1, S_IFDIR);
		e2_dent_put(fs, bb->bb_data + 12, dino, (uint16_t)(fs->fs_bsize - 12), "..", 2, S_IFDIR);
		bdirty(bb);
		brelse(bb);
		in.i_block[0] = blk;
		in.i_blocks = fs->fs_bsize / 512;
		in.i_size = fs->fs_bsize;
	}
	if ((err = e2_iput(fs, ino, &in, true)) < 0 ||
	    (err = e2_dir_add(fs, dino, name, len, ino, mode)) < 0) {
		if (blk != 0)
			e2_bfree(fs, blk);
		in = (struct e2ino){ .i_dtime = e2_now_sec() };
		e2_iput(fs, ino, &in, true);
		e2_ifree(fs, ino, dir);
		return err;
	}
	if (dir) {
		struct e2ino din;
		if ((err = e2_iget(fs, dino, &din)) == 0) {
			din.i_links++;
			err = e2_iput(fs, dino, &din, false);
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
	int err = e2_walk(fs, rel, true, &dino, &name, &len);

	if (err == -EBUSY)                         /* the root */
		return writing ? -EISDIR : open_ino(fs, EXT2_ROOT, rel, true, flags, out);
	if (err < 0)
		return err;
	struct dloc loc;
	err = e2_dir_find(fs, dino, name, len, &loc);
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
	if ((err = e2_iget(fs, loc.dl_ino, &in)) < 0)
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
	if ((flags & FILE_O_TRUNC) && in.i_size != 0 && (err = e2_set_size(fs, loc.dl_ino, 0)) < 0)
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
	int r = e2_walk(fs, rel, false, &ino, NULL, NULL);
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
	int r = e2_walk(fs, rel, true, &dino, &name, &len);
	if (r == -EBUSY)
		r = -EEXIST;
	if (r == 0) {
		r = e2_dir_find(fs, dino, name, len, &loc);
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
	int err = e2_walk(fs, rel, true, &dino, &name, &len);

	if (err < 0)
		return err == -EBUSY && !want_dir ? -EISDIR : err;
	if ((err = e2_dir_find(fs, dino, name, len, &loc)) < 0 || (err = e2_iget(fs, loc.dl_ino, &in)) < 0)
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
	if (isdir && (err = e2_dir_empty(fs, loc.dl_ino)) <= 0)
		return err < 0 ? err : -ENOTEMPTY;
	if ((err = e2_dir_remove(fs, dino, &loc)) < 0)
		return err;
	if (isdir) {                               /* its ".." no longer links the parent */
		struct e2ino din;
		if (e2_iget(fs, dino, &din) == 0 && din.i_links > 1) {
			din.i_links--;
			e2_iput(fs, dino, &din, false);
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
		int err = e2_dir_find(fs, d, "..", 2, &loc);
		if (err < 0)
			return err;
		d = loc.dl_ino;
	}
	return e2_corrupt(fs, "directory loop at inode", d);
}

static int do_rename(struct ext2fs *fs, const char *from, const char *to)
{
	uint32_t fdir = 0, tdir = 0;
	const char *fname, *tname;
	size_t flen, tlen;
	struct dloc floc, tloc;
	struct e2ino in, tin;
	int err;

	if ((err = e2_walk(fs, from, true, &fdir, &fname, &flen)) < 0 ||
	    (err = e2_walk(fs, to, true, &tdir, &tname, &tlen)) < 0)
		return err;
	if ((err = e2_dir_find(fs, fdir, fname, flen, &floc)) < 0 || (err = e2_iget(fs, floc.dl_ino, &in)) < 0)
		return err;
	bool isdir = (in.i_mode & S_IFMT) == S_IFDIR;
	err = e2_dir_find(fs, tdir, tname, tlen, &tloc);
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
		if ((err = e2_iget(fs, tloc.dl_ino, &tin)) < 0)
			return err;
		bool tdirp = (tin.i_mode & S_IFMT) == S_IFDIR;
		if (isdir && !tdirp)
			return -ENOTDIR;
		if (!isdir && tdirp)
			return -EISDIR;
		if (tdirp && (err = e2_dir_empty(fs, tloc.dl_ino)) <= 0)
			return err < 0 ? err : -ENOTEMPTY;
		/* point the target's entry at the source: no space needed */
		struct bcbuf *bb = bread(fs->fs_bc, tloc.dl_pblk, NULL, 0, tloc.dl_pblk, &err);
		if (bb == NULL)
			return err;
		put32(bb->bb_data + tloc.dl_off, floc.dl_ino);
		if (fs->fs_filetype)
			bb->bb_data[tloc.dl_off + 7] = e2_dt_of_mode(in.i_mode);
		bdirty(bb);
		brelse(bb);
		if (tdirp) {
			struct e2ino din;
			if (e2_iget(fs, tdir, &din) == 0 && din.i_links > 1) {
				din.i_links--;             /* the old target's ".." */
				e2_iput(fs, tdir, &din, false);
			}
		}
		link_drop(fs, tloc.dl_ino, tdirp ? 2 : 1);
	} else if ((err = e2_dir_add(fs, tdir, tname, tlen, floc.dl_ino, in.i_mode)) < 0) {
		return err;
	}
	/* the source's entry may have moved if it shared a block with the new one: find it again */
	if ((err = e2_dir_find(fs, fdir, fname, flen, &floc)) < 0 || (err = e2_dir_remove(fs, fdir, &floc)) < 0)
		return err;
	if (isdir && fdir != tdir) {
		struct e2ino d;
		if ((err = e2_dir_set_dotdot(fs, floc.dl_ino, tdir)) < 0)
			return err;
		if (e2_iget(fs, fdir, &d) == 0 && d.i_links > 1) {
			d.i_links--;
			e2_iput(fs, fdir, &d, false);
		}
		if (e2_iget(fs, tdir, &d) == 0) {
			d.i_links++;
			e2_iput(fs, tdir, &d, false);
		}
	}
	if (e2_iget(fs, floc.dl_ino, &in) == 0) {
		in.i_ctime = e2_now_sec();
		e2_iput(fs, floc.dl_ino, &in, false);
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
		    get16(gd(fs, g) + 12) > e2_group_blocks(fs, g) || get16(gd(fs, g) + 14) > fs->fs_ipg) {
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
