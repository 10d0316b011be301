/*
 * fscheck - the file system calls' promises, checked from user mode.
 *
 * Like syscheck: each check is one raw system call (Linux numbers and
 * flags, through sonde_syscall) and prints "ok" or "not ok" with what it
 * asked and got; the exit status is the number of failures.  Covered:
 * open's O_CREAT/O_EXCL/O_TRUNC/O_APPEND in /tmp, EROFS outside it,
 * read/write/lseek/fstat of a /tmp file, stat, getdents64, unlink, mkdir,
 * rmdir, rename, and every pointer argument refused with EFAULT.  It
 * leaves /tmp as it found it.
 */
#include <stdio.h>
#include <string.h>
#include "userland/libc/sonde.h"
#include "userland/bin/check.h"

#define ENOENT  2
#define EBADF   9
#define EFAULT  14
#define EBUSY   16
#define EEXIST  17
#define ENOTDIR 20
#define EISDIR  21
#define EINVAL  22
#define EROFS   30
#define ENOTEMPTY 39

#define O_WRONLY 01
#define O_RDWR   02
#define O_CREAT  0100
#define O_EXCL   0200
#define O_TRUNC  01000
#define O_APPEND 02000
#define O_DIRECTORY 0200000

#define KERNEL_ADDR 0xffffffff80100000L
#define HOLE_ADDR   0x0000700000000000L

/* Linux's struct stat: st_size at byte 48, st_mode at 24. */
static long stat_size(const unsigned char *st) { long v; memcpy(&v, st + 48, 8); return v; }
static unsigned stat_mode(const unsigned char *st) { unsigned v; memcpy(&v, st + 24, 4); return v; }

/* has_entry: does directory path list name (getdents64)? */
static int has_entry(const char *path, const char *name)
{
	static char buf[1024];
	int fd = (int)CALL(SYS_open, path, O_DIRECTORY, 0), found = 0;
	long n;

	if (fd < 0)
		return fd;
	while ((n = CALL(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n; off += ((struct sonde_dirent64 *)(buf + off))->d_reclen)
			found |= strcmp(((struct sonde_dirent64 *)(buf + off))->d_name, name) == 0;
	CALL(SYS_close, fd, 0, 0);
	return n < 0 ? (int)n : found;
}

static void check_files(void)
{
	static unsigned char st[144];
	static char buf[64];

	long fd = CALL(SYS_open, "/tmp/fsc", O_RDWR | O_CREAT | O_EXCL, 0644);
	check("open(/tmp/fsc, O_CREAT|O_EXCL) >= 0", fd >= 0, 1);
	check("open(/tmp/fsc, O_CREAT|O_EXCL) again", CALL(SYS_open, "/tmp/fsc", O_RDWR | O_CREAT | O_EXCL, 0644), -EEXIST);
	check("write(fd, \"hello\", 5)", CALL(SYS_write, fd, "hello", 5), 5);
	check("lseek(fd, 0, SEEK_SET)", CALL(SYS_lseek, fd, 0, 0), 0);
	check("read(fd, buf, 64)", CALL(SYS_read, fd, buf, 64), 5);
	check("read back is hello", memcmp(buf, "hello", 5), 0);
	check("fstat(fd).st_size", (CALL(SYS_fstat, fd, st, 0), stat_size(st)), 5);
	check("lseek(fd, 0, SEEK_END)", CALL(SYS_lseek, fd, 0, 2), 5);
	CALL(SYS_close, fd, 0, 0);
	fd = CALL(SYS_open, "/tmp/fsc", O_WRONLY | O_APPEND, 0);
	check("write(O_APPEND fd, \"!!\", 2)", CALL(SYS_write, fd, "!!", 2), 2);
	CALL(SYS_close, fd, 0, 0);
	check("stat(/tmp/fsc).st_size", (CALL(SYS_stat, "/tmp/fsc", st, 0), stat_size(st)), 7);
	check("stat(/tmp/fsc) is a regular file", stat_mode(st) & 0170000, 0100000);
	fd = CALL(SYS_open, "/tmp/fsc", O_WRONLY | O_TRUNC, 0);
	check("stat after O_TRUNC: size", (CALL(SYS_fstat, fd, st, 0), stat_size(st)), 0);
	CALL(SYS_close, fd, 0, 0);
	check("getdents64(/tmp) lists fsc", has_entry("/tmp", "fsc"), 1);
	check("getdents64(/bin) lists fscheck", has_entry("/bin", "fscheck"), 1);
	check("getdents64(/) lists tmp", has_entry("/", "tmp"), 1);
	check("getdents64(/dev) lists null", has_entry("/dev", "null"), 1);
	check("getdents64(/tmp/fsc): not a directory", has_entry("/tmp/fsc", "x"), -ENOTDIR);
	fd = CALL(SYS_open, "/tmp", O_DIRECTORY, 0);
	check("getdents64(fd, kernel, 1024)", CALL(SYS_getdents64, fd, KERNEL_ADDR, 1024), -EFAULT);
	check("getdents64(fd, buf, 4): too small", CALL(SYS_getdents64, fd, buf, 4), -EINVAL);
	check("read(dir fd)", CALL(SYS_read, fd, buf, 8), -EISDIR);
	CALL(SYS_close, fd, 0, 0);
	check("getdents64(99, buf, 64)", CALL(SYS_getdents64, 99, buf, 64), -EBADF);
	check("rename(/tmp/fsc, /tmp/fsd)", CALL(SYS_rename, "/tmp/fsc", "/tmp/fsd", 0), 0);
	check("stat(/tmp/fsc) after rename", CALL(SYS_stat, "/tmp/fsc", st, 0), -ENOENT);
	check("open(/tmp/fsd/x): through a file", CALL(SYS_open, "/tmp/fsd/x", O_WRONLY | O_CREAT, 0644), -ENOTDIR);
	check("stat(/tmp/fsd/)", CALL(SYS_stat, "/tmp/fsd/", st, 0), -ENOTDIR);
	check("unlink(/tmp/fsd)", CALL(SYS_unlink, "/tmp/fsd", 0, 0), 0);
	check("unlink(/tmp/fsd) again", CALL(SYS_unlink, "/tmp/fsd", 0, 0), -ENOENT);
}

static void check_dirs(void)
{
	static unsigned char st[144];

	check("mkdir(/tmp/fscd)", CALL(SYS_mkdir, "/tmp/fscd", 0755, 0), 0);
	check("mkdir(/tmp/fscd) again", CALL(SYS_mkdir, "/tmp/fscd", 0755, 0), -EEXIST);
	check("stat(/tmp/fscd) is a directory", (CALL(SYS_stat, "/tmp/fscd", st, 0), stat_mode(st) & 0170000), 040000);
	long fd = CALL(SYS_open, "/tmp/fscd/f", O_WRONLY | O_CREAT, 0644);
	check("open(/tmp/fscd/f, O_CREAT) >= 0", fd >= 0, 1);
	CALL(SYS_close, fd, 0, 0);
	check("open(/tmp/fscd, O_WRONLY)", CALL(SYS_open, "/tmp/fscd", O_WRONLY, 0), -EISDIR);
	check("open(/tmp/fscd/f, O_DIRECTORY)", CALL(SYS_open, "/tmp/fscd/f", O_DIRECTORY, 0), -ENOTDIR);
	check("rmdir(/tmp/fscd): not empty", CALL(SYS_rmdir, "/tmp/fscd", 0, 0), -ENOTEMPTY);
	check("unlink(/tmp/fscd): a directory", CALL(SYS_unlink, "/tmp/fscd", 0, 0), -EISDIR);
	check("rmdir(/tmp/fscd/f): a file", CALL(SYS_rmdir, "/tmp/fscd/f", 0, 0), -ENOTDIR);
	check("unlink(/tmp/fscd/f)", CALL(SYS_unlink, "/tmp/fscd/f", 0, 0), 0);
	check("rmdir(/tmp/fscd)", CALL(SYS_rmdir, "/tmp/fscd", 0, 0), 0);
	check("rmdir(/tmp)", CALL(SYS_rmdir, "/tmp", 0, 0), -EBUSY);
	check("mkdir(/tmp/no/such)", CALL(SYS_mkdir, "/tmp/no/such", 0755, 0), -ENOENT);
}

static void check_readonly_and_faults(void)
{
	static unsigned char st[144];

	check("open(/bin/cat, O_WRONLY)", CALL(SYS_open, "/bin/cat", O_WRONLY, 0), -EROFS);
	check("open(/newfile, O_CREAT)", CALL(SYS_open, "/newfile", O_WRONLY | O_CREAT, 0644), -EROFS);
	check("open(/nosuch, 0)", CALL(SYS_open, "/nosuch", 0, 0), -ENOENT);
	check("open(/bin/cat/x, 0)", CALL(SYS_open, "/bin/cat/x", 0, 0), -ENOTDIR);
	check("open(/bin, O_WRONLY)", CALL(SYS_open, "/bin", O_WRONLY, 0), -EISDIR);
	check("unlink(/bin/cat)", CALL(SYS_unlink, "/bin/cat", 0, 0), -EROFS);
	check("unlink(/bin)", CALL(SYS_unlink, "/bin", 0, 0), -EISDIR);
	check("mkdir(/bin)", CALL(SYS_mkdir, "/bin", 0755, 0), -EEXIST);
	check("mkdir(/newdir)", CALL(SYS_mkdir, "/newdir", 0755, 0), -EROFS);
	check("rmdir(/bin)", CALL(SYS_rmdir, "/bin", 0, 0), -EROFS);
	check("rename(/bin/cat, /tmp/cat)", CALL(SYS_rename, "/bin/cat", "/tmp/cat", 0), -EROFS);
	check("stat(/bin/cat) is a regular file", (CALL(SYS_stat, "/bin/cat", st, 0), stat_mode(st) & 0170000), 0100000);
	check("stat(/nosuch)", CALL(SYS_stat, "/nosuch", st, 0), -ENOENT);
	check("stat(/bin/cat/)", CALL(SYS_stat, "/bin/cat/", st, 0), -ENOTDIR);
	check("stat(kernel, st)", CALL(SYS_stat, KERNEL_ADDR, st, 0), -EFAULT);
	check("stat(/bin/cat, kernel)", CALL(SYS_stat, "/bin/cat", KERNEL_ADDR, 0), -EFAULT);
	check("lstat(/bin/cat, unmapped)", CALL(SYS_lstat, "/bin/cat", HOLE_ADDR, 0), -EFAULT);
	check("unlink(NULL)", CALL(SYS_unlink, 0, 0, 0), -EFAULT);
	check("mkdir(kernel)", CALL(SYS_mkdir, KERNEL_ADDR, 0755, 0), -EFAULT);
	check("rmdir(unmapped)", CALL(SYS_rmdir, HOLE_ADDR, 0, 0), -EFAULT);
	check("rename(NULL, /tmp/x)", CALL(SYS_rename, 0, "/tmp/x", 0), -EFAULT);
	check("rename(/tmp/x, kernel)", CALL(SYS_rename, "/tmp/x", KERNEL_ADDR, 0), -EFAULT);
	check("open(unmapped, O_CREAT)", CALL(SYS_open, HOLE_ADDR, O_CREAT, 0), -EFAULT);
}

int main(void)
{
	check_files();
	check_dirs();
	check_readonly_and_faults();
	return check_summary();
}
