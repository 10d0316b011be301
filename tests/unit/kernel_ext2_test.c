/*
 * kernel_ext2_test.c - the ext2 file system (kernel/ext2.c) and the
 * buffer cache under it (kernel/bcache.c), on the host.
 *
 * Each test makes an image with Debian's mke2fs -d from a temp folder,
 * mounts it through a host block device backed by the image file (its
 * bd_strategy does the pread/pwrite and calls biodone at once), works on
 * it through the ext2 API, syncs, unmounts, and asks the host's tools:
 * `e2fsck -fn` must exit 0, and `debugfs -R "cat PATH"` must print what
 * was written.  Corrupt images must be refused with -EINVAL.  The tests
 * skip (with a message) where mke2fs, e2fsck or debugfs is missing.
 *
 * The requests go through the real block layer (kernel/blkdev.c: checks,
 * accounting, biodone and biowait) to that device.  The kernel's locks,
 * threads, clock, heap and CPU are stood in for below (one thread: a mutex
 * is a counter checked for balance; the sdt sites are never enabled).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>                /* Linux's values: kernel/proc.h's (which clashes with signal.h) */
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "kernel/bcache.h"
#include "kernel/cpu.h"
#include "kernel/ext2.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"

#define MKE2FS  "/usr/sbin/mke2fs"
#define E2FSCK  "/usr/sbin/e2fsck"
#define DEBUGFS "/usr/sbin/debugfs"

/* --- the kernel's stand-ins ---------------------------------------------------------------- */

static int held_mutexes;

void mutex_init(mutex_t *m, const char *name) { memset(m, 0, sizeof(*m)); m->mx_name = name; }
static struct thread *const me = (struct thread *)&held_mutexes;
void mutex_lock(mutex_t *m) { assert_null(m->mx_owner); m->mx_owner = me; held_mutexes++; }
void mutex_unlock(mutex_t *m) { assert_ptr_equal(m->mx_owner, me); m->mx_owner = NULL; held_mutexes--; }
void spin_init(spinlock_t *l, const char *name) { (void)l; (void)name; }
uint64_t thread_spawn(const char *name, void (*fn)(void *), void *arg) { (void)name; (void)fn; (void)arg; return 1; }
void thread_sleep_ns(uint64_t ns) { (void)ns; }
static uint64_t fake_now;
uint64_t ktime_ns(void) { return fake_now; }
uint64_t ktime_boot_wall_ns;
void *kmalloc(size_t n) { return malloc(n); }
void *kzalloc(size_t n) { return calloc(1, n); }
void kfree(void *p) { free(p); }
static char last_msg[512];
int kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	va_end(ap);
	return n;
}
void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fail_msg("panic");
	abort();
}

/* what kernel/blkdev.c needs: one CPU; the host disk completes each request before
 * blk_strategy returns, so biowait never sleeps */
static struct cpu host_cpu;
struct cpu *curcpu(void) { return &host_cpu; }
void spin_lock(spinlock_t *l) { (void)l; }
void spin_unlock(spinlock_t *l) { (void)l; }
void waitq_wake_all(waitq_t *wq) { (void)wq; }
void waitq_sleep(waitq_t *wq, spinlock_t *l)
{
	(void)wq;
	(void)l;
	fail_msg("biowait slept: a request was not done");
}
/* kernel/bcache.c's flusher never runs here (thread_spawn does nothing) */
bool waitq_sleep_timeout(waitq_t *wq, spinlock_t *l, uint64_t ns)
{
	(void)wq;
	(void)l;
	(void)ns;
	return false;
}

/* --- a host block device on an image file ------------------------------------------------- */

static int io_fail_after = -1;     /* requests until the disk fails them all (-1: never) */
static int io_big_reads;           /* requests naming /disk/data/big (fileinfo_t) */

/* host_strategy: the driver, below kernel/blkdev.c's blk_strategy (which checked the range) */
static int host_strategy(struct blkdev *bd, struct buf *bp)
{
	if (io_fail_after == 0)
		return -EIO;
	if (io_fail_after > 0)
		io_fail_after--;
	const char *file = bp->b_file != NULL ? bp->b_file : "<none>";
	if (strcmp(file, "/disk/data/big") == 0)
		io_big_reads++;
	if (getenv("EXT2_TRACE"))
		fprintf(stderr, "io %s blk %llu %s\n", (bp->b_flags & B_WRITE) ? "W" : "R",
		        (unsigned long long)bp->b_blkno, file);

	int fd = (int)(intptr_t)bd->bd_drv;
	off_t off = (off_t)(bp->b_blkno * BLK_SECTOR);
	ssize_t n = (bp->b_flags & B_WRITE) ? pwrite(fd, bp->b_addr, bp->b_bcount, off)
	                                    : pread(fd, bp->b_addr, bp->b_bcount, off);
	if (n != (ssize_t)bp->b_bcount) {
		bp->b_error = EIO;
		bp->b_resid = bp->b_bcount;
	}
	biodone(bp);
	return 0;
}

struct hostdisk {
	struct blkdev hd_bd;
	int hd_fd;
	char hd_path[256];
};

static void disk_open(struct hostdisk *hd, const char *path)
{
	memset(hd, 0, sizeof(*hd));
	snprintf(hd->hd_path, sizeof(hd->hd_path), "%s", path);
	hd->hd_fd = open(path, O_RDWR);
	assert_true(hd->hd_fd >= 0);
	struct stat st;
	assert_int_equal(fstat(hd->hd_fd, &st), 0);
	hd->hd_bd.bd_name = "hostdisk";
	snprintf(hd->hd_bd.bd_statname, sizeof(hd->hd_bd.bd_statname), "hostdisk0");
	hd->hd_bd.bd_nsect = (uint64_t)st.st_size / BLK_SECTOR;
	hd->hd_bd.bd_strategy = host_strategy;
	hd->hd_bd.bd_drv = (void *)(intptr_t)hd->hd_fd;
}

static void disk_close(struct hostdisk *hd)
{
	assert_int_equal(hd->hd_bd.bd_inflight, 0);      /* blkdev.c saw every request finish */
	close(hd->hd_fd);
}

/* --- images and the host's tools ---------------------------------------------------------- */

static char tmpdir[256];
static int nimg;

static bool have_tools(void)
{
	if (access(MKE2FS, X_OK) != 0 || access(E2FSCK, X_OK) != 0 || access(DEBUGFS, X_OK) != 0) {
		print_message("kernel_ext2_test: %s, %s or %s missing (Debian's e2fsprogs): skipped\n",
		              MKE2FS, E2FSCK, DEBUGFS);
		return false;
	}
	return true;
}

#define NEED_TOOLS() do { if (!have_tools()) { skip(); } } while (0)

static int run(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void put_file(const char *dir, const char *name, const void *data, size_t n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

/* pattern: the byte at offset i of a test file seeded s */
static uint8_t pattern(uint64_t i, unsigned s) { return (uint8_t)((i * 2654435761u + s) >> 13); }

#define BIG_SIZE (300 * 1024 + 77)    /* past 12 + 256 blocks of 1 KiB: double indirect */

/*
 * make_image: a file system of kb KiB, block size bsize, from a folder
 * holding etc/motd, data/big (BIG_SIZE bytes of pattern 1) and
 * empty/; extra is more mke2fs options.  Its path in out.
 */
static void make_image(char *out, size_t outsz, unsigned kb, unsigned bsize, const char *extra)
{
	char src[300], cmd[1200];

	snprintf(src, sizeof(src), "%s/src%d", tmpdir, nimg);
	snprintf(out, outsz, "%s/img%d", tmpdir, nimg++);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/etc %s/data %s/empty", src, src, src);
	assert_int_equal(run(cmd), 0);
	put_file(src, "etc/motd", "Welcome to Sonde.\n", 18);
	uint8_t *big = malloc(BIG_SIZE);
	for (uint64_t i = 0; i < BIG_SIZE; i++)
		big[i] = pattern(i, 1);
	put_file(src, "data/big", big, BIG_SIZE);
	free(big);
	snprintf(cmd, sizeof(cmd),
	         MKE2FS " -q -F -t ext2 -b %u -I 256 -O none,sparse_super,filetype -E root_owner=0:0 %s -d %s %s %u",
	         bsize, extra != NULL ? extra : "", src, out, kb);
	strncat(cmd, " >/dev/null", sizeof(cmd) - strlen(cmd) - 1);
	assert_int_equal(run(cmd), 0);
}

static int fsck(const char *img)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), E2FSCK " -fn %s >%s.fsck 2>&1", img, img);
	int r = run(cmd);
	if (r != 0) {
		snprintf(cmd, sizeof(cmd), "cat %s.fsck", img);
		run(cmd);
	}
	return r;
}

/* debugfs_cat: the file at path in img, as debugfs prints it, into a malloc'd buffer. */
static char *debugfs_cat(const char *img, const char *path, size_t *len)
{
	char cmd[800];
	snprintf(cmd, sizeof(cmd), DEBUGFS " -R 'cat %s' %s 2>/dev/null", path, img);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, p)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	pclose(p);
	*len = n;
	return buf;
}

struct mounted {
	struct hostdisk m_disk;
	struct ext2fs *m_fs;
};

static void do_mount(struct mounted *m, const char *img)
{
	disk_open(&m->m_disk, img);
	assert_int_equal(ext2_mount(&m->m_disk.hd_bd, "/disk", &m->m_fs), 0);
}

static void do_unmount(struct mounted *m)
{
	ext2_unmount(m->m_fs);
	disk_close(&m->m_disk);
	assert_int_equal(held_mutexes, 0);
}

static int64_t write_file(struct ext2fs *fs, const char *rel, int flags, const void *data, size_t n)
{
	struct file *f;
	int r = ext2_open(fs, rel, FILE_O_WRONLY | FILE_O_CREAT | flags, &f);
	if (r < 0)
		return r;
	int64_t w = f->f_ops->fo_write(f, data, n);
	f->f_ops->fo_release(f);
	return w;
}

static int64_t read_file(struct ext2fs *fs, const char *rel, void *buf, size_t n)
{
	struct file *f;
	int r = ext2_open(fs, rel, 0, &f);
	if (r < 0)
		return r;
	size_t got = 0;
	int64_t k = 0;
	while (got < n && (k = f->f_ops->fo_read(f, (char *)buf + got, n - got)) > 0)
		got += (size_t)k;
	f->f_ops->fo_release(f);
	return got == 0 && k < 0 ? k : (int64_t)got;
}

static void assert_debugfs(const char *img, const char *path, const void *want, size_t n)
{
	size_t len;
	char *got = debugfs_cat(img, path, &len);
	assert_int_equal(len, n);
	assert_memory_equal(got, want, n);
	free(got);
}

/* --- reading -------------------------------------------------------------------------------- */

static void test_read(void **state)
{
	(void)state;
	NEED_TOOLS();
	char img[300];
	struct mounted m;
	char buf[64];
	make_image(img, sizeof(img), 4096, 1024, NULL);
	do_mount(&m, img);
	assert_false(ext2_readonly(m.m_fs));
	assert_int_equal(read_file(m.m_fs, "etc/motd", buf, sizeof(buf)), 18);
	assert_memory_equal(buf, "Welcome to Sonde.\n", 18);

	uint8_t *big = malloc(BIG_SIZE + 100);
	assert_int_equal(read_file(m.m_fs, "data/big", big, BIG_SIZE + 100), BIG_SIZE);
	for (uint64_t i = 0; i < BIG_SIZE; i++)
		if (big[i] != pattern(i, 1))
			fail_msg("data/big differs at %llu", (unsigned long long)i);
	free(big);
	assert_true(io_big_reads >= BIG_SIZE / 1024);     /* the data blocks named their file */
	struct blk_stats ds;
	blk_stats_read(&m.m_disk.hd_bd, &ds);             /* blkdev.c counted what the disk moved */
	assert_true(ds.bs_reads >= BIG_SIZE / 1024 && ds.bs_nread >= BIG_SIZE);
	assert_int_equal(ds.bs_writes, 0);

	struct file_stat st;
	assert_int_equal(ext2_stat(m.m_fs, "data/big", &st), 0);
	assert_int_equal(st.fs_size, BIG_SIZE);
	assert_int_equal(st.fs_mode & FILE_S_IFMT, FILE_S_IFREG);
	assert_int_equal(st.fs_nlink, 1);
	assert_int_equal(ext2_stat(m.m_fs, "", &st), 0);
	assert_int_equal(st.fs_ino, 2);
	assert_int_equal(st.fs_mode & FILE_S_IFMT, FILE_S_IFDIR);
	assert_int_equal(ext2_stat(m.m_fs, "nope", &st), -ENOENT);
	assert_int_equal(ext2_stat(m.m_fs, "etc/motd/x", &st), -ENOTDIR);

	/* the root lists ., .., lost+found, etc, data, empty */
	struct file *f;
	struct file_dirent de;
	assert_int_equal(ext2_open(m.m_fs, "", 0, &f), 0);
	int seen = 0;
	for (uint64_t i = 0; f->f_ops->fo_readdir(f, i, &de) == 1; i++) {
		if (strcmp(de.de_name, "etc") == 0 || strcmp(de.de_name, "data") == 0 ||
		    strcmp(de.de_name, "lost+found") == 0)
			assert_int_equal(de.de_type, FILE_DT_DIR), seen++;
		if (i == 0)
			assert_string_equal(de.de_name, ".");
	}
	assert_int_equal(seen, 3);
	assert_int_equal(f->f_ops->fo_readdir(f, 1, &de), 1);    /* rewinding works */
	assert_string_equal(de.de_name, "..");
	assert_int_equal(f->f_ops->fo_read(f, buf, 1), -EISDIR);
	f->f_ops->fo_release(f);
	assert_int_equal(ext2_open(m.m_fs, "etc", FILE_O_WRONLY, &f), -EISDIR);
	assert_int_equal(ext2_open(m.m_fs, "etc/motd", FILE_O_DIRECTORY, &f), -ENOTDIR);

	struct bcache_stats bs;
	bcache_stats_get(&bs);
	assert_true(bs.bs_reads > 300);
	assert_true(bs.bs_hits > 0);
	assert_int_equal(bs.bs_nread, bs.bs_reads * 1024);
	do_unmount(&m);
	assert_int_equal(fsck(img), 0);
}

/* --- writing ---------------------------------------------------------------------------------- */

static void test_write_ops(void **state)
{
	(void)state;
	NEED_TOOLS();
	char img[300];
	struct mounted m;
	make_image(img, sizeof(img), 8192, 1024, NULL);
	do_mount(&m, img);
	struct ext2fs *fs = m.m_fs;

	/* a big new file: direct, single and double indirect blocks, many evictions */
	size_t n = 2600 * 1024 + 5;
	uint8_t *data = malloc(n), *back = malloc(n);
	for (size_t i = 0; i < n; i++)
		data[i] = pattern(i, 7);
	assert_int_equal(write_file(fs, "data/new", 0, data, n), (int64_t)n);
	assert_int_equal(read_file(fs, "data/new", back, n), (int64_t)n);
	assert_memory_equal(back, data, n);
	struct bcache_stats bs;
	bcache_stats_get(&bs);
	assert_true(bs.bs_evictions > 0);                         /* 2.6 MB through a 2 MiB cache */
	assert_true(bs.bs_dirty > 0);
	assert_int_equal(ext2_sync(fs), 0);
	bcache_stats_get(&bs);
	assert_int_equal(bs.bs_dirty, 0);
	assert_int_equal(fsck(img), 0);

	/* append, O_EXCL, O_TRUNC */
	assert_int_equal(write_file(fs, "etc/motd", FILE_O_APPEND, "more\n", 5), 5);
	struct file *f;
	assert_int_equal(ext2_open(fs, "etc/motd", FILE_O_CREAT | FILE_O_EXCL, &f), -EEXIST);
	assert_int_equal(write_file(fs, "t1", FILE_O_TRUNC, "abc", 3), 3);
	assert_int_equal(write_file(fs, "t1", FILE_O_TRUNC, "de", 2), 2);

	/* truncate: shrink into the double-indirect range and to a partial block, then grow */
	assert_int_equal(ext2_open(fs, "data/new", FILE_O_WRONLY, &f), 0);
	assert_int_equal(f->f_ops->fo_truncate(f, 300 * 1024 + 3), 0);
	assert_int_equal(f->f_ops->fo_truncate(f, 5000), 0);
	assert_int_equal(f->f_ops->fo_truncate(f, 9000), 0);     /* a hole of zeros */
	assert_int_equal(f->f_ops->fo_fsync(f), 0);
	f->f_ops->fo_release(f);
	assert_int_equal(fsck(img), 0);
	memset(data + 5000, 0, 4000);
	assert_int_equal(read_file(fs, "data/new", back, n), 9000);
	assert_memory_equal(back, data, 9000);

	/* mkdir, rmdir, rename */
	assert_int_equal(ext2_mkdir(fs, "d1"), 0);
	assert_int_equal(ext2_mkdir(fs, "d1"), -EEXIST);
	assert_int_equal(ext2_mkdir(fs, "d1/d2"), 0);
	assert_int_equal(write_file(fs, "d1/d2/f", 0, "inner", 5), 5);
	assert_int_equal(ext2_rmdir(fs, "d1"), -ENOTEMPTY);
	assert_int_equal(ext2_rmdir(fs, "t1"), -ENOTDIR);
	assert_int_equal(ext2_unlink(fs, "d1"), -EISDIR);
	assert_int_equal(ext2_rmdir(fs, ""), -EBUSY);
	assert_int_equal(ext2_rename(fs, "d1", "d1/d2/x"), -EINVAL);
	assert_int_equal(ext2_rename(fs, "d1/d2", "empty/d2"), 0);    /* a directory to another parent */
	assert_int_equal(ext2_rename(fs, "t1", "etc/t2"), 0);
	assert_int_equal(ext2_rename(fs, "etc/t2", "etc/motd"), 0);  /* replaces a file */
	assert_int_equal(ext2_rename(fs, "empty/d2", "etc"), -ENOTEMPTY);
	assert_int_equal(ext2_rename(fs, "etc/motd", "d1"), -EISDIR);
	assert_int_equal(ext2_rename(fs, "nope", "x"), -ENOENT);
	assert_int_equal(ext2_rmdir(fs, "d1"), 0);
	struct file_stat st;
	assert_int_equal(ext2_stat(fs, "", &st), 0);
	uint64_t root_links = st.fs_nlink;
	assert_int_equal(ext2_mkdir(fs, "d3"), 0);
	assert_int_equal(ext2_stat(fs, "", &st), 0);
	assert_int_equal(st.fs_nlink, root_links + 1);
	assert_int_equal(ext2_rename(fs, "empty/d2", "d3"), 0);       /* replaces an empty directory */
	assert_int_equal(ext2_stat(fs, "d3/f", &st), 0);
	assert_int_equal(st.fs_size, 5);

	/* many names: the directory grows past one block */
	for (int i = 0; i < 120; i++) {
		char name[64];
		snprintf(name, sizeof(name), "empty/file-with-a-longish-name-%03d", i);
		assert_int_equal(write_file(fs, name, 0, name, strlen(name)), (int64_t)strlen(name));
	}
	for (int i = 0; i < 120; i += 2) {
		char name[64];
		snprintf(name, sizeof(name), "empty/file-with-a-longish-name-%03d", i);
		assert_int_equal(ext2_unlink(fs, name), 0);
	}
	assert_int_equal(ext2_unlink(fs, "data/big"), 0);
	assert_int_equal(ext2_unlink(fs, "data/big"), -ENOENT);

	/* a file unlinked while open stays readable until closed */
	assert_int_equal(write_file(fs, "ghost", 0, "boo", 3), 3);
	assert_int_equal(ext2_open(fs, "ghost", 0, &f), 0);
	assert_int_equal(ext2_unlink(fs, "ghost"), 0);
	char b3[3];
	assert_int_equal(f->f_ops->fo_read(f, b3, 3), 3);
	assert_memory_equal(b3, "boo", 3);
	f->f_ops->fo_release(f);

	do_unmount(&m);
	assert_int_equal(fsck(img), 0);
	assert_debugfs(img, "/etc/motd", "de", 2);
	assert_debugfs(img, "/d3/f", "inner", 5);
	assert_debugfs(img, "/data/new", data, 9000);
	assert_debugfs(img, "/empty/file-with-a-longish-name-077", "empty/file-with-a-longish-name-077", 34);

	/* mounted again: what was written is there */
	do_mount(&m, img);
	assert_int_equal(read_file(m.m_fs, "data/new", back, n), 9000);
	assert_memory_equal(back, data, 9000);
	assert_int_equal(ext2_stat(m.m_fs, "empty/file-with-a-longish-name-010", &st), -ENOENT);
	do_unmount(&m);
	free(data);
	free(back);
}

/* sparse: one byte past 64 MiB needs the triple-indirect tree; truncate gives it all back */
static void test_triple_indirect(void **state)
{
	(void)state;
	NEED_TOOLS();
	char img[300];
	struct mounted m;
	make_image(img, sizeof(img), 4096, 1024, NULL);
	do_mount(&m, img);
	struct ext2_info before, after;
	ext2_info(m.m_fs, &before);
	struct file *f;
	assert_int_equal(ext2_open(m.m_fs, "sparse", FILE_O_WRONLY | FILE_O_CREAT, &f), 0);
	f->f_off = 70ULL << 20;
	assert_int_equal(f->f_ops->fo_write(f, "Z", 1), 1);
	f->f_off = 300 * 1024;                        /* double indirect too */
	assert_int_equal(f->f_ops->fo_write(f, "Y", 1), 1);
	f->f_ops->fo_release(f);
	ext2_info(m.m_fs, &after);
	assert_int_equal(before.ei_bfree - after.ei_bfree, 4 + 3);   /* 3 indirect + 1, 2 indirect + 1 */
	assert_int_equal(ext2_sync(m.m_fs), 0);
	assert_int_equal(fsck(img), 0);
	char c = 0;
	assert_int_equal(ext2_open(m.m_fs, "sparse", 0, &f), 0);
	f->f_off = 70ULL << 20;
	assert_int_equal(f->f_ops->fo_read(f, &c, 1), 1);
	assert_int_equal(c, 'Z');
	f->f_off = 1 << 20;
	assert_int_equal(f->f_ops->fo_read(f, &c, 1), 1);
	assert_int_equal(c, 0);
	assert_int_equal(f->f_ops->fo_truncate(f, 0), 0);
	f->f_ops->fo_release(f);
	ext2_info(m.m_fs, &after);
	assert_int_equal(after.ei_bfree, before.ei_bfree);
	do_unmount(&m);
	assert_int_equal(fsck(img), 0);
}

/* 4 KiB blocks, and names: 255 bytes are fine, 256 and 300 are not; a deep path */
static void test_names_and_depth(void **state)
{
	(void)state;
	NEED_TOOLS();
	char img[300];
	struct mounted m;
	make_image(img, sizeof(img), 8192, 4096, NULL);
	do_mount(&m, img);
	char name[400];
	memset(name, 'n', 300);
	name[300] = '\0';
	assert_int_equal(write_file(m.m_fs, name, 0, "x", 1), -ENAMETOOLONG);
	assert_int_equal(ext2_mkdir(m.m_fs, name), -ENAMETOOLONG);
	name[256] = '\0';
	assert_int_equal(write_file(m.m_fs, name, 0, "x", 1), -ENAMETOOLONG);
	name[255] = '\0';
	assert_int_equal(write_file(m.m_fs, name, 0, "x", 1), 1);
	struct file_stat st;
	assert_int_equal(ext2_stat(m.m_fs, name, &st), 0);

	char path[2048] = "";
	for (int i = 0; i < 40; i++) {
		size_t l = strlen(path);
		snprintf(path + l, sizeof(path) - l, "%slevel%02d", i ? "/" : "", i);
		assert_int_equal(ext2_mkdir(m.m_fs, path), 0);
	}
	strcat(path, "/leaf");
	assert_int_equal(write_file(m.m_fs, path, 0, "deep", 4), 4);
	char buf[8];
	assert_int_equal(read_file(m.m_fs, path, buf, sizeof(buf)), 4);
	uint8_t *big = malloc(BIG_SIZE);
	assert_int_equal(read_file(m.m_fs, "data/big", big, BIG_SIZE), BIG_SIZE);
	for (uint64_t i = 0; i < BIG_SIZE; i += 97)
		assert_int_equal(big[i], pattern(i, 1));
	free(big);
	do_unmount(&m);
	assert_int_equal(fsck(img), 0);
	char dpath[2100];
	snprintf(dpath, sizeof(dpath), "/%s", path);
	assert_debugfs(img, dpath, "deep", 4);
}

/* a full disk: ENOSPC, nothing half made, e2fsck clean; then inodes run out */
static void test_full_disk(void **state)
{
	(void)state;
	NEED_TOOLS();
	char img[300];
	struct mounted m;
	make_image(img, sizeof(img), 1024, 1024, "-N 64 -m 0");
	do_mount(&m, img);
	struct ext2_info ei;
	ext2_info(m.m_fs, &ei);
	size_t n = (ei.ei_bfree + 10) * 1024;
	uint8_t *data = calloc(1, n);
	int64_t w = write_file(m.m_fs, "fill", 0, data, n);
	assert_true(w > 0 && (size_t)w < n);
	assert_int_equal(write_file(m.m_fs, "fill", FILE_O_APPEND, data, 1024), -ENOSPC);
	ext2_info(m.m_fs, &ei);
	assert_int_equal(ei.ei_bfree, 0);
	assert_int_equal(ext2_mkdir(m.m_fs, "nodir"), -ENOSPC);
	struct file_stat st;
	assert_int_equal(ext2_stat(m.m_fs, "nodir", &st), -ENOENT);
	assert_int_equal(ext2_sync(m.m_fs), 0);
	assert_int_equal(fsck(img), 0);

	/* empty files until no inode is left (a directory block may run out first) */
	int r = 0;
	for (int i = 0; i < 200 && r >= 0; i++) {
		char name[32];
		snprintf(name, sizeof(name), "e%d", i);
		r = write_file(m.m_fs, name, 0, "", 0);
	}
	assert_int_equal(r, -ENOSPC);
	assert_int_equal(ext2_sync(m.m_fs), 0);
	assert_int_equal(fsck(img), 0);

	/* freeing makes room again */
	assert_int_equal(ext2_unlink(m.m_fs, "fill"), 0);
	assert_int_equal(write_file(m.m_fs, "after", 0, data, 4096), 4096);
	free(data);
	do_unmount(&m);
	assert_int_equal(fsck(img), 0);
}

/* a revision 0 file system: 128-byte inodes, no filetype in directory entries */
static void test_revision0(void **state)
{
	(void)state;
	NEED_TOOLS();
	char src[300], img[300], cmd[1400], buf[16];
	struct mounted m;
	snprintf(src, sizeof(src), "%s/r0src", tmpdir);
	snprintf(img, sizeof(img), "%s/r0.img", tmpdir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/etc && echo hi > %s/etc/motd && " MKE2FS
	         " -q -F -t ext2 -r 0 -b 1024 -d %s %s 2048 >/dev/null 2>&1", src, src, src, img);
	assert_int_equal(run(cmd), 0);
	do_mount(&m, img);
	assert_int_equal(read_file(m.m_fs, "etc/motd", buf, sizeof(buf)), 3);
	assert_int_equal(ext2_mkdir(m.m_fs, "d"), 0);
	assert_int_equal(write_file(m.m_fs, "d/f", 0, "rev0", 4), 4);
	struct file *f;
	struct file_dirent de;
	int dirs = 0, regs = 0;
	assert_int_equal(ext2_open(m.m_fs, "", 0, &f), 0);
	for (uint64_t i = 0; f->f_ops->fo_readdir(f, i, &de) == 1; i++)
		dirs += de.de_type == FILE_DT_DIR;
	f->f_ops->fo_release(f);
	assert_int_equal(dirs, 5);                                /* . .. lost+found etc d */
	assert_int_equal(ext2_open(m.m_fs, "d", 0, &f), 0);
	for (uint64_t i = 0; f->f_ops->fo_readdir(f, i, &de) == 1; i++)
		regs += de.de_type == FILE_DT_REG;
	f->f_ops->fo_release(f);
	assert_int_equal(regs, 1);
	assert_int_equal(ext2_rename(m.m_fs, "etc/motd", "d/motd"), 0);
	do_unmount(&m);
	assert_int_equal(fsck(img), 0);
	assert_debugfs(img, "/d/f", "rev0", 4);
	assert_debugfs(img, "/d/motd", "hi\n", 3);
}

/* --- bad images ------------------------------------------------------------------------------- */

static void poke32(const char *img, off_t off, uint32_t v)
{
	int fd = open(img, O_RDWR);
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	assert_int_equal(pwrite(fd, b, 4, off), 4);
	close(fd);
}

static void expect_refused(const char *img, const char *msg)
{
	struct hostdisk hd;
	struct ext2fs *fs = NULL;
	disk_open(&hd, img);
	last_msg[0] = '\0';
	assert_int_equal(ext2_mount(&hd.hd_bd, "/disk", &fs), -EINVAL);
	if (strstr(last_msg, msg) == NULL)
		fail_msg("message \"%s\" lacks \"%s\"", last_msg, msg);
	disk_close(&hd);
	assert_int_equal(held_mutexes, 0);
}

static void test_bad_images(void **state)
{
	(void)state;
	NEED_TOOLS();
	char img[300], cmd[700];

	make_image(img, sizeof(img), 2048, 1024, NULL);
	poke32(img, 1024 + 56, 0x1234);                             /* magic */
	expect_refused(img, "bad magic");

	make_image(img, sizeof(img), 2048, 1024, NULL);
	snprintf(cmd, sizeof(cmd), "truncate -s 1M %s", img);      /* half the image */
	assert_int_equal(run(cmd), 0);
	expect_refused(img, "claims");

	make_image(img, sizeof(img), 2048, 1024, NULL);
	poke32(img, 1024 + 24, 10);                                 /* 1 MiB blocks */
	expect_refused(img, "block size");

	make_image(img, sizeof(img), 2048, 1024, NULL);
	poke32(img, 1024 + 32, 0);                                  /* no blocks per group */
	expect_refused(img, "counts");

	make_image(img, sizeof(img), 2048, 1024, NULL);
	poke32(img, 1024 + 96, 0x2 | 0x40);                         /* extents */
	expect_refused(img, "incompatible features 0x40");

	make_image(img, sizeof(img), 2048, 1024, NULL);
	poke32(img, 2048 + 8, 0x7fffffff);                          /* group 0's inode table */
	expect_refused(img, "descriptor");

	struct hostdisk hd;                                         /* all zeros */
	snprintf(img, sizeof(img), "%s/zeros", tmpdir);
	snprintf(cmd, sizeof(cmd), "truncate -s 64K %s", img);
	assert_int_equal(run(cmd), 0);
	disk_open(&hd, img);
	assert_false(ext2_probe(&hd.hd_bd));
	disk_close(&hd);
	expect_refused(img, "bad magic");
}

/* an unknown read-only-compatible feature: mounted read-only, reads work, writes are EROFS */
static void test_ro_compat(void **state)
{
	(void)state;
	NEED_TOOLS();
	char img[300];
	struct mounted m;
	char buf[32];
	make_image(img, sizeof(img), 2048, 1024, NULL);
	poke32(img, 1024 + 100, 0x1 | 0x8);                         /* sparse_super | huge_file */
	do_mount(&m, img);
	assert_true(ext2_readonly(m.m_fs));
	assert_true(strstr(last_msg, "read-only") != NULL);
	assert_int_equal(read_file(m.m_fs, "etc/motd", buf, sizeof(buf)), 18);
	assert_int_equal(write_file(m.m_fs, "etc/motd", 0, "x", 1), -EROFS);
	assert_int_equal(write_file(m.m_fs, "newfile", 0, "x", 1), -EROFS);
	assert_int_equal(ext2_mkdir(m.m_fs, "d"), -EROFS);
	assert_int_equal(ext2_unlink(m.m_fs, "etc/motd"), -EROFS);
	do_unmount(&m);
}

/* corrupt structures met after mounting: EIO with a message, never a crash */
static void test_corrupt_structures(void **state)
{
	(void)state;
	NEED_TOOLS();
	char img[300], cmd[800], buf[64];
	struct mounted m;
	struct file_stat st;
	make_image(img, sizeof(img), 2048, 1024, NULL);
	/* data/big's first block far past the end; etc's directory block full of garbage */
	snprintf(cmd, sizeof(cmd), DEBUGFS " -w -R 'sif /data/big block[0] 99999999' %s >/dev/null 2>&1", img);
	assert_int_equal(run(cmd), 0);
	snprintf(cmd, sizeof(cmd), DEBUGFS " -R 'bmap /etc 0' %s 2>/dev/null", img);
	FILE *p = popen(cmd, "r");
	unsigned long blk = 0;
	assert_int_equal(fscanf(p, "%lu", &blk), 1);
	pclose(p);
	int fd = open(img, O_RDWR);
	uint8_t junk[1024];
	for (int i = 0; i < 1024; i++)
		junk[i] = (uint8_t)(i * 37 + 11);
	assert_int_equal(pwrite(fd, junk, sizeof(junk), (off_t)blk * 1024), 1024);
	close(fd);

	do_mount(&m, img);
	assert_int_equal(read_file(m.m_fs, "data/big", buf, sizeof(buf)), -EIO);
	assert_true(strstr(last_msg, "corrupt") != NULL);
	assert_int_equal(ext2_stat(m.m_fs, "etc/motd", &st), -EIO);
	assert_int_equal(write_file(m.m_fs, "etc/new", 0, "x", 1), -EIO);
	struct file *f;
	struct file_dirent de;
	assert_int_equal(ext2_open(m.m_fs, "etc", 0, &f), 0);
	assert_int_equal(f->f_ops->fo_readdir(f, 0, &de), -EIO);
	f->f_ops->fo_release(f);
	assert_int_equal(ext2_stat(m.m_fs, "empty", &st), 0);     /* the rest still works */
	do_unmount(&m);
}

/* a failing disk: errors come back, nothing crashes */
static void test_io_errors(void **state)
{
	(void)state;
	NEED_TOOLS();
	char img[300];
	struct mounted m;
	make_image(img, sizeof(img), 2048, 1024, NULL);
	do_mount(&m, img);
	uint8_t *big = malloc(BIG_SIZE);
	io_fail_after = 20;
	int64_t r = read_file(m.m_fs, "data/big", big, BIG_SIZE);
	assert_true(r < BIG_SIZE);
	io_fail_after = 0;
	assert_true(write_file(m.m_fs, "data/x", 0, big, 4096) != 0);
	assert_true(ext2_sync(m.m_fs) <= 0);
	io_fail_after = -1;
	struct bcache_stats bs;
	bcache_stats_get(&bs);
	assert_true(bs.bs_errors > 0);
	free(big);
	ext2_unmount(m.m_fs);
	disk_close(&m.m_disk);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ext2testXXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return run(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_write_ops),
		cmocka_unit_test(test_triple_indirect),
		cmocka_unit_test(test_names_and_depth),
		cmocka_unit_test(test_full_disk),
		cmocka_unit_test(test_revision0),
		cmocka_unit_test(test_bad_images),
		cmocka_unit_test(test_ro_compat),
		cmocka_unit_test(test_corrupt_structures),
		cmocka_unit_test(test_io_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
