/*
 * vfs.c - the path layer: one name space over the boot archive, /dev, /tmp and /disk.
 *
 * Theory.  Every path is first normalized (vfs_norm): made absolute (the
 * working directory is always "/"), "//" and "." dropped, ".." taken
 * (above "/" it stays at "/"), and kept without its leading "/", so "" is
 * the root.  Then it belongs to one of three places:
 *   - "dev" and "dev/NAME": the directory /dev and its three devices
 *     (kernel/file.c), and a fourth, "link" (kernel/link.c), on a machine
 *     joined to another; nothing can be created there;
 *   - "tmp" and below: the writable in-memory file system (kernel/tmpfs.c),
 *     which gets the rest of the path relative to /tmp;
 *   - "disk" and below, when a disk was mounted at boot (vfs_disk_mount):
 *     the ext2 file system (kernel/ext2.c), which gets the rest of the path
 *     relative to /disk as tmpfs does; without one, /disk is not there;
 *   - anything else: the boot archive (kernel/kfile.h), read-only (EROFS
 *     for anything that would change it).  It has no directories as such:
 *     a directory is a proper prefix of some file's name, so "bin" is one
 *     because "bin/cat" exists, and the root lists the archive's first
 *     components, then "dev" and "tmp".
 * A directory opened (open(2) with or without O_DIRECTORY) is a struct
 * file whose fo_readdir gives ".", "..", then its entries; getdents64
 * (kernel/syscall.c) walks it by index, f_off being the next index.
 *
 * Errors are Linux's: ENOENT, ENOTDIR (a file used as a directory, or a
 * trailing "/" after a file), EISDIR, EEXIST, EROFS, ENAMETOOLONG.
 * Context: thread context (may allocate and sleep), never probe context.
 *
 * Order: normalizing, the boot archive's directories, directory files,
 * open, stat, the calls that change the tree, reading a whole file.
 *
 * Tests: tests/e2e/test_shell_pipes.py, tests/e2e/test_commands.py
 */
#include "kernel/blkdev.h"
#include "kernel/cpu.h"
#include "kernel/ext2.h"
#include "kernel/file.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/link.h"
#include "kernel/mem.h"
#include "kernel/proc.h"
#include "kernel/tmpfs.h"

#define VFS_PATH_MAX 256

/* The ext2 file system at /disk, or NULL; set once at boot (vfs_disk_mount), before any process runs. */
static struct ext2fs *vfs_disk;

/* --- normalizing ------------------------------------------------------------------ */

/*
 * vfs_norm_only: path as described above into out (size bytes); *dir is set if
 * it ended in "/" (it must then be a directory).  0 or -ENAMETOOLONG,
 * -ENOENT for "".
 */
static int vfs_norm_only(const char *path, char *out, size_t size, bool *dir)
{
	size_t n = 0;
	const char *p = path;

	if (*path == '\0')
		return -ENOENT;
	*dir = false;
	while (*p != '\0') {
		while (*p == '/')
			p++;
		const char *e = p;
		while (*e != '\0' && *e != '/')
			e++;
		size_t len = (size_t)(e - p);
		if (len > 0)                      /* a trailing "/", ".", "..": a directory is meant */
			*dir = *e == '/' || (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.');
		if (len == 0 || (len == 1 && p[0] == '.')) {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
		} else {
			if (n + (n > 0) + len + 1 > size)
				return -ENAMETOOLONG;
			if (n > 0)
				out[n++] = '/';
			memcpy(out + n, p, len);
			n += len;
		}
		p = e;
	}
	out[n] = '\0';
	return 0;
}

/* vfs_norm: vfs_norm_only, counted as a name looked up (sysinfo's namei). */
static int vfs_norm(const char *path, char *out, size_t size, bool *dir)
{
	SYSINFO_ADD(namei, 1);
	return vfs_norm_only(path, out, size, dir);
}

/* vfs_under: is p "top" or below it?  Then *rest is what follows "top/" ("" for top itself). */
static bool vfs_under(const char *p, const char *top, const char **rest)
{
	size_t n = strlen(top);

	if (strncmp(p, top, n) != 0 || (p[n] != '\0' && p[n] != '/'))
		return false;
	*rest = p[n] == '/' ? p + n + 1 : p + n;
	return true;
}

/* --- the boot archive's directories ------------------------------------------- */

struct boot_scan {
	const char *bs_prefix;       /* "" or "bin/" */
	size_t bs_len;
	uint64_t bs_want;            /* the entry wanted, by index */
	uint64_t bs_seen;            /* distinct entries so far */
	char bs_last[FILE_NAME_MAX]; /* the last entry seen (names are sorted: duplicates are adjacent) */
	bool bs_found, bs_isdir;
};

/* boot_scan_one: count kf's first component below the prefix, once per distinct name. */
static bool boot_scan_one(const struct kfile *kf, void *arg)
{
	struct boot_scan *bs = arg;

	if (strncmp(kf->kf_name, bs->bs_prefix, bs->bs_len) != 0)
		return true;
	const char *rest = kf->kf_name + bs->bs_len;
	const char *slash = strchr(rest, '/');
	size_t n = slash != NULL ? (size_t)(slash - rest) : strlen(rest);
	if (n == 0 || n >= sizeof(bs->bs_last))
		return true;
	if (strncmp(bs->bs_last, rest, n) == 0 && bs->bs_last[n] == '\0' && bs->bs_seen > 0)
		return true;
	memcpy(bs->bs_last, rest, n);
	bs->bs_last[n] = '\0';
	if (bs->bs_seen++ == bs->bs_want) {
		bs->bs_found = true;
		bs->bs_isdir = slash != NULL;
		return false;
	}
	return true;
}

/* boot_dir_entry: entry idx of boot directory prefix ("" or "bin/"); false past the last. */
static bool boot_dir_entry(const char *prefix, uint64_t idx, struct file_dirent *de)
{
	struct boot_scan bs = { .bs_prefix = prefix, .bs_len = strlen(prefix), .bs_want = idx };

	kfile_foreach(boot_scan_one, &bs);      /* the table never changes after boot: no lock */
	if (bs.bs_found) {
		kstrlcpy(de->de_name, bs.bs_last, sizeof(de->de_name));
		de->de_type = bs.bs_isdir ? FILE_DT_DIR : FILE_DT_REG;
		de->de_ino = 2 + idx;
	}
	return bs.bs_found;
}

struct prefix_find {
	const char *pf_prefix;       /* "bin/" */
	size_t pf_len;
	bool pf_found;
};

static bool prefix_find_one(const struct kfile *kf, void *arg)
{
	struct prefix_find *pf = arg;

	if (strncmp(kf->kf_name, pf->pf_prefix, pf->pf_len) != 0)
		return true;
	pf->pf_found = true;
	return false;
}

/* boot_is_dir: is p ("bin") a directory of the boot archive (some file's name starts with "bin/")? */
static bool boot_is_dir(const char *p)
{
	char prefix[VFS_PATH_MAX + 1];
	size_t n = kstrlcpy(prefix, p, sizeof(prefix) - 1);

	if (*p == '\0')
		return true;
	prefix[n] = '/';
	prefix[n + 1] = '\0';
	struct prefix_find pf = { .pf_prefix = prefix, .pf_len = n + 1 };
	kfile_foreach(prefix_find_one, &pf);
	return pf.pf_found;
}

/* boot_missing: why p is not in the archive: -ENOTDIR if a file stands where a directory should, else -ENOENT. */
static int boot_missing(const char *p)
{
	char part[VFS_PATH_MAX];

	for (const char *s = strchr(p, '/'); s != NULL; s = strchr(s + 1, '/')) {
		size_t n = MIN((size_t)(s - p), sizeof(part) - 1);
		memcpy(part, p, n);
		part[n] = '\0';
		if (kfile_lookup(part) != NULL)
			return -ENOTDIR;
	}
	return -ENOENT;
}

/* --- directory files --------------------------------------------------------------------- */

enum vfs_dir_kind { VD_BOOT, VD_DEV, VD_TMP };

struct vfs_dir {
	enum vfs_dir_kind vd_kind;
	int vd_node;                 /* VD_TMP: the tmpfs node, held */
	bool vd_root;                /* the root: "dev" and "tmp" after the archive's entries */
	char vd_prefix[VFS_PATH_MAX + 1];   /* VD_BOOT: "" or "bin/" */
};

static const char *const dev_names[] = { "console", "null", "zero" };

/* vfs_dev_link: /dev/link is there (the machine has a link to another: kernel/link.c). */
static bool vfs_dev_link(void)
{
	struct link_stats st;

	link_stats_get(&st);
	return st.ls_present;
}

/* root_extra: the root's entries after the archive's: dev, tmp, and disk when mounted. */
static int root_extra(uint64_t idx, struct file_dirent *de)
{
	static const char *const extra[] = { "dev", "tmp", "disk" };

	if (idx >= ARRAY_SIZE(extra) - (vfs_disk == NULL))
		return 0;
	kstrlcpy(de->de_name, extra[idx], sizeof(de->de_name));
	de->de_type = FILE_DT_DIR;
	de->de_ino = 900 + idx;
	return 1;
}

/* root_boot_count: how many entries the archive gives the root. */
static uint64_t root_boot_count(void)
{
	struct file_dirent de;
	uint64_t n = 0;

	while (boot_dir_entry("", n, &de))
		n++;
	return n;
}

static int vd_readdir(struct file *f, uint64_t idx, struct file_dirent *de)
{
	struct vfs_dir *vd = f->f_priv;

	if (idx < 2) {
		kstrlcpy(de->de_name, idx == 0 ? "." : "..", sizeof(de->de_name));
		de->de_type = FILE_DT_DIR;
		de->de_ino = 1;
		return 1;
	}
	idx -= 2;
	switch (vd->vd_kind) {
	case VD_TMP:
		return tmpfs_readdir(vd->vd_node, idx, de);
	case VD_DEV:
		if (idx >= ARRAY_SIZE(dev_names) + (vfs_dev_link() ? 1 : 0))
			return 0;
		kstrlcpy(de->de_name, idx < ARRAY_SIZE(dev_names) ? dev_names[idx] : "link",
		         sizeof(de->de_name));
		de->de_type = FILE_DT_CHR;
		de->de_ino = 800 + idx;
		return 1;
	case VD_BOOT:
		if (boot_dir_entry(vd->vd_prefix, idx, de))
			return 1;
		return vd->vd_root ? root_extra(idx - root_boot_count(), de) : 0;
	}
	return 0;
}

static int64_t vd_read(struct file *f, void *buf, size_t n)
{
	(void)f; (void)buf; (void)n;
	return -EISDIR;
}

static void vd_stat(struct file *f, struct file_stat *st)
{
	struct vfs_dir *vd = f->f_priv;

	*st = (struct file_stat){ .fs_mode = FILE_S_IFDIR | (vd->vd_kind == VD_TMP ? 0777 : 0555),
	                          .fs_ino = 1, .fs_nlink = 2 };
}

static void vd_release(struct file *f)
{
	struct vfs_dir *vd = f->f_priv;

	if (vd->vd_kind == VD_TMP)
		tmpfs_release(vd->vd_node);
	kfree(vd);
	kfree(f);
}

static const struct file_ops vd_ops = {
	.fo_read = vd_read, .fo_release = vd_release, .fo_readdir = vd_readdir, .fo_stat = vd_stat,
	.fo_mode = FILE_S_IFDIR,
};

/* vfs_dir_open: a directory file; for VD_TMP it takes over the hold on node.  0 or -ENOMEM. */
static int vfs_dir_open(enum vfs_dir_kind kind, const char *p, int node, struct file **out)
{
	struct vfs_dir *vd = kzalloc(sizeof(*vd));
	struct file *f = kzalloc(sizeof(*f));

	if (vd == NULL || f == NULL) {
		kfree(vd);
		kfree(f);
		if (kind == VD_TMP)
			tmpfs_release(node);
		return -ENOMEM;
	}
	vd->vd_kind = kind;
	vd->vd_node = node;
	vd->vd_root = kind == VD_BOOT && *p == '\0';
	if (kind == VD_BOOT && *p != '\0')
		ksnprintf(vd->vd_prefix, sizeof(vd->vd_prefix), "%s/", p);
	*f = (struct file){ .f_ops = &vd_ops, .f_refs = 1, .f_priv = vd };
	*out = f;
	return 0;
}

/* --- open ------------------------------------------------------------------------------ */

static int vfs_open_dev(const char *rest, int flags, bool dir, struct file **out)
{
	if (*rest == '\0') {
		if ((flags & FILE_O_ACCMODE) != 0)
			return -EISDIR;
		return vfs_dir_open(VD_DEV, "", 0, out);
	}
	if (strcmp(rest, "link") == 0 && (flags & FILE_O_CREAT) == 0 && !dir)
		return link_file_open(flags, out);
	struct file *f = strchr(rest, '/') == NULL ? file_dev_open(rest) : NULL;
	if (f == NULL)
		return (flags & FILE_O_CREAT) ? -EROFS : -ENOENT;
	if ((flags & FILE_O_CREAT) && (flags & FILE_O_EXCL)) {
		file_unref(f);
		return -EEXIST;
	}
	if (dir || (flags & FILE_O_DIRECTORY)) {
		file_unref(f);
		return -ENOTDIR;
	}
	*out = f;
	return 0;
}

static int vfs_open_tmp(const char *rest, int flags, bool dir, struct file **out)
{
	int node = 0;
	int r = tmpfs_open(rest, flags | (dir ? FILE_O_DIRECTORY : 0), out, &node);

	if (r == 1)
		return vfs_dir_open(VD_TMP, rest, node, out);
	return r;
}

static int vfs_open_boot(const char *p, int flags, bool dir, struct file **out)
{
	const struct kfile *kf = *p != '\0' ? kfile_lookup(p) : NULL;
	bool isdir = kf == NULL && boot_is_dir(p);

	if (kf == NULL && !isdir)
		return (flags & FILE_O_CREAT) && boot_missing(p) == -ENOENT ? -EROFS : boot_missing(p);
	if ((flags & FILE_O_CREAT) && (flags & FILE_O_EXCL))
		return -EEXIST;
	if (isdir)
		return (flags & FILE_O_ACCMODE) != 0 ? -EISDIR : vfs_dir_open(VD_BOOT, p, 0, out);
	if (dir || (flags & FILE_O_DIRECTORY))
		return -ENOTDIR;
	if ((flags & FILE_O_ACCMODE) != 0 || (flags & FILE_O_TRUNC))
		return -EROFS;
	return file_boot_open(kf, out);
}

/*
 * vfs_name_file: what fileinfo_t (D's fds[]) says of a file just opened by
 * the normalized path p: "/" p, its file system and mount point.  A shared
 * file (/dev's) keeps the name it has; without memory for the name the
 * file goes unnamed ("<unknown>" in D).
 */
/* vfs_where: the file system holding the normalized path p (its type, as fileinfo_t's fi_fs), and its mount point. */
static void vfs_where(const char *p, const char **fs, const char **mount)
{
	const char *rest;

	if (vfs_under(p, "dev", &rest))
		*fs = "devfs", *mount = "/dev";
	else if (vfs_under(p, "tmp", &rest))
		*fs = "tmpfs", *mount = "/tmp";
	else if (vfs_disk != NULL && vfs_under(p, "disk", &rest))
		*fs = "ext2", *mount = "/disk";
	else
		*fs = "bootfs", *mount = "/";
}

static void vfs_name_file(struct file *f, const char *p, int flags)
{
	if (f->f_path != NULL || __atomic_load_n(&f->f_refs, __ATOMIC_RELAXED) != 1)
		return;                                 /* shared (/dev's): named already, or not ours to name */
	size_t n = strlen(p);
	char *s = kmalloc(n + 2);
	if (s != NULL) {
		s[0] = '/';
		memcpy(s + 1, p, n + 1);
		f->f_path = s;
		f->f_path_heap = true;
	}
	vfs_where(p, &f->f_fs, &f->f_mount);
	f->f_oflags = flags;
}

int file_open(const char *path, int flags, struct file **out)
{
	char p[VFS_PATH_MAX];
	bool dir;
	const char *rest;
	int r = vfs_norm(path, p, sizeof(p), &dir);

	if (r < 0)
		return r;
	if (vfs_under(p, "dev", &rest))
		r = vfs_open_dev(rest, flags, dir, out);
	else if (vfs_under(p, "tmp", &rest))
		r = vfs_open_tmp(rest, flags, dir, out);
	else if (vfs_disk != NULL && vfs_under(p, "disk", &rest))
		r = ext2_open(vfs_disk, rest, flags | (dir ? FILE_O_DIRECTORY : 0), out);
	else
		r = vfs_open_boot(p, flags, dir, out);
	if (r == 0)
		vfs_name_file(*out, p, flags);
	return r;
}

/* --- stat -------------------------------------------------------------------------------- */

int file_truncate(struct file *f, uint64_t size)
{
	return f->f_ops->fo_truncate != NULL ? f->f_ops->fo_truncate(f, size) : -EINVAL;
}

void file_stat_of(struct file *f, struct file_stat *st)
{
	if (f->f_ops->fo_stat != NULL) {
		f->f_ops->fo_stat(f, st);
		return;
	}
	uint32_t type = f->f_ops->fo_mode;
	*st = (struct file_stat){ .fs_mode = type | (type == FILE_S_IFREG ? 0444 : 0666),
	                          .fs_size = f->f_ops->fo_size != NULL ? f->f_ops->fo_size(f) : 0,
	                          .fs_nlink = 1 };
}

int file_stat(const char *path, struct file_stat *st)
{
	char p[VFS_PATH_MAX];
	bool dir;
	const char *rest;
	int r = vfs_norm(path, p, sizeof(p), &dir);

	if (r < 0)
		return r;
	if (vfs_under(p, "tmp", &rest)) {
		r = tmpfs_stat(rest, st);
		return r == 0 && dir && (st->fs_mode & FILE_S_IFMT) != FILE_S_IFDIR ? -ENOTDIR : r;
	}
	if (vfs_disk != NULL && vfs_under(p, "disk", &rest)) {
		r = ext2_stat(vfs_disk, rest, st);
		return r == 0 && dir && (st->fs_mode & FILE_S_IFMT) != FILE_S_IFDIR ? -ENOTDIR : r;
	}
	struct file *f;
	if ((r = file_open(path, 0, &f)) < 0)
		return r;
	file_stat_of(f, st);
	file_unref(f);
	return 0;
}

/* --- changing the tree: only /tmp and /disk can ----------------------------------------------- */

/* vfs_outside: the error for changing p outside /tmp and /disk: what is missing, else read-only. */
static int vfs_outside(const char *path, bool want_dir, bool creating)
{
	struct file_stat st;
	int r = file_stat(path, &st);

	if (r < 0)
		return creating && r == -ENOENT ? -EROFS : r;
	if (creating)
		return -EEXIST;
	bool isdir = (st.fs_mode & FILE_S_IFMT) == FILE_S_IFDIR;
	if (want_dir && !isdir)
		return -ENOTDIR;
	if (!want_dir && isdir)
		return -EISDIR;
	return -EROFS;
}

#define VFS_IN_TMP  0
#define VFS_OUTSIDE 1
#define VFS_IN_DISK 2

/*
 * vfs_tmp_path: path normalized into p, and where it is: VFS_IN_TMP or
 * VFS_IN_DISK (its part below the mount point in *rest), VFS_OUTSIDE, or
 * a negative errno.
 */
static int vfs_tmp_path(const char *path, char *p, const char **rest)
{
	bool dir;
	int r = vfs_norm(path, p, VFS_PATH_MAX, &dir);

	if (r < 0)
		return r;
	if (vfs_under(p, "tmp", rest))
		return VFS_IN_TMP;
	return vfs_disk != NULL && vfs_under(p, "disk", rest) ? VFS_IN_DISK : VFS_OUTSIDE;
}

int file_unlink(const char *path)
{
	char p[VFS_PATH_MAX];
	const char *rest;
	int r = vfs_tmp_path(path, p, &rest);

	if (r == VFS_IN_DISK)
		return ext2_unlink(vfs_disk, rest);
	if (r != 0)
		return r < 0 ? r : vfs_outside(path, false, false);
	return *rest == '\0' ? -EISDIR : tmpfs_unlink(rest);
}

int file_mkdir(const char *path)
{
	char p[VFS_PATH_MAX];
	const char *rest;
	int r = vfs_tmp_path(path, p, &rest);

	if (r == VFS_IN_DISK)
		return ext2_mkdir(vfs_disk, rest);
	if (r != 0)
		return r < 0 ? r : vfs_outside(path, true, true);
	return tmpfs_mkdir(rest);
}

int file_rmdir(const char *path)
{
	char p[VFS_PATH_MAX];
	const char *rest;
	int r = vfs_tmp_path(path, p, &rest);

	if (r == VFS_IN_DISK)
		return ext2_rmdir(vfs_disk, rest);
	if (r != 0)
		return r < 0 ? r : *p == '\0' ? -EBUSY : vfs_outside(path, true, false);
	return *rest == '\0' ? -EBUSY : tmpfs_rmdir(rest);
}

int file_rename(const char *from, const char *to)
{
	char p[VFS_PATH_MAX], q[VFS_PATH_MAX];
	const char *rf, *rt;
	int a = vfs_tmp_path(from, p, &rf);
	int b = a >= 0 ? vfs_tmp_path(to, q, &rt) : a;

	if (a < 0 || b < 0)
		return a < 0 ? a : b;
	if (a == VFS_OUTSIDE) {
		struct file_stat st;
		int r = file_stat(from, &st);
		return r < 0 ? r : -EROFS;
	}
	if (b != a)
		return -EXDEV;                     /* another file system */
	return a == VFS_IN_DISK ? ext2_rename(vfs_disk, rf, rt) : tmpfs_rename(rf, rt);
}

/* --- the disk ------------------------------------------------------------------------------- */

struct disk_scan {
	struct blkdev *ds_found;
	int ds_seen;
};

static void disk_scan_one(struct blkdev *bd, void *arg)
{
	struct disk_scan *ds = arg;

	ds->ds_seen++;
	if (ds->ds_found == NULL && ext2_probe(bd))
		ds->ds_found = bd;
}

void vfs_disk_mount(bool verbose)
{
	struct disk_scan ds = { 0 };

	blk_each(disk_scan_one, &ds);
	if (ds.ds_found == NULL) {
		if (verbose || ds.ds_seen > 0)
			kprintf("disk: %s: /disk not mounted\n",
			        ds.ds_seen == 0 ? "no disk" : "no disk holds an ext2 file system");
		return;
	}
	struct ext2fs *fs;
	if (ext2_mount(ds.ds_found, "/disk", &fs) < 0) {
		kprintf("disk: %s: /disk not mounted\n", ds.ds_found->bd_statname);
		return;
	}
	vfs_disk = fs;
	ds.ds_found->bd_fstype = "ext2";            /* for the io provider's fileinfo_t */
	ds.ds_found->bd_mount = "/disk";
	if (verbose) {
		struct ext2_info ei;
		ext2_info(fs, &ei);
		kprintf("disk: /disk is ext2 on %s, %llu KiB, %llu KiB free%s\n", ds.ds_found->bd_statname,
		        (unsigned long long)(ei.ei_blocks * ei.ei_bsize / 1024),
		        (unsigned long long)(ei.ei_bfree * ei.ei_bsize / 1024),
		        ext2_readonly(fs) ? ", read-only" : "");
	}
}

struct ext2fs *vfs_disk_fs(void)
{
	return vfs_disk;
}

int file_sync(void)
{
	return vfs_disk != NULL ? ext2_sync(vfs_disk) : 0;
}

int file_fsync(struct file *f)
{
	return f->f_ops->fo_fsync != NULL ? f->f_ops->fo_fsync(f) : 0;
}

/* --- reading a whole file ------------------------------------------------------------------- */

#define READ_ALL_MAX (4UL << 20)

int file_read_all(const char *path, char **bufp, size_t *lenp)
{
	struct file *f;
	int r = file_open(path, 0, &f);

	if (r < 0)
		return r;
	size_t cap = 4096, len = 0;
	char *buf = kmalloc(cap + 1);
	int64_t n = buf != NULL ? 0 : -ENOMEM;
	while (buf != NULL && (n = f->f_ops->fo_read != NULL ? f->f_ops->fo_read(f, buf + len, cap - len) : -EISDIR) > 0) {
		len += (size_t)n;
		if (len == cap && cap < READ_ALL_MAX) {
			char *bigger = kmalloc(cap * 2 + 1);
			if (bigger == NULL) {
				n = -ENOMEM;
				break;
			}
			memcpy(bigger, buf, len);
			kfree(buf);
			buf = bigger;
			cap *= 2;
		} else if (len == cap) {
			n = -EFBIG;
			break;
		}
	}
	file_unref(f);
	if (n < 0) {
		kfree(buf);
		return (int)n;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

const char *file_strerror(int err)
{
	switch (err) {
	case -ENOENT:  return "No such file or directory";
	case -EROFS:   return "Read-only file system";
	case -EISDIR:  return "Is a directory";
	case -ENOTDIR: return "Not a directory";
	case -ENOSPC:  return "No space left on device";
	case -EEXIST:  return "File exists";
	case -ENAMETOOLONG: return "File name too long";
	case -ENOMEM:  return "Cannot allocate memory";
	case -EPIPE:   return "Broken pipe";
	case -ENOTEMPTY: return "Directory not empty";
	case -EXDEV:   return "Invalid cross-device link";
	case -EBUSY:   return "Device or resource busy";
	case -EINVAL:  return "Invalid argument";
	case -EFBIG:   return "File too large";
	}
	return "I/O error";
}

/* --- naming a path for the fsinfo provider ------------------------------------------------ */

int file_name_path(const char *path, struct file *nf, char *buf, size_t size)
{
	bool dir;

	*nf = (struct file){ 0 };
	if (size < 2 || vfs_norm_only(path, buf + 1, size - 1, &dir) < 0)
		return -1;
	buf[0] = '/';
	nf->f_path = buf;
	vfs_where(buf + 1, &nf->f_fs, &nf->f_mount);
	return 0;
}
