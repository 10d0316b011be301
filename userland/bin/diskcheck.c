/*
 * diskcheck - /disk's file system calls, checked from user mode.
 *
 * Like fscheck, for the ext2 disk (kernel/ext2.c): each check is one raw
 * system call and prints "ok" or "not ok" with what it asked and got; the
 * exit status is the number of failures.  Covered: create, write (64 KiB,
 * past the direct blocks), fsync, read back, rename (and EXDEV to /tmp),
 * mkdir, rmdir's ENOTEMPTY, unlink, ftruncate's absence aside, sync.  It
 * leaves DIR/diskcheck.out holding "diskcheck wrote this\n" and
 * DIR/diskcheck.big holding 65536 bytes of the pattern (i * 7 + 3) & 0xff,
 * for the host to compare (tests/e2e/test_disk.py); everything else it
 * made is gone.  DIR is argv[1], or /disk.
 */
#include <stdio.h>
#include <string.h>
#include "userland/libc/sonde.h"
#include "userland/bin/check.h"

#define ENOENT    2
#define EBADF     9
#define EXDEV     18
#define ENOTEMPTY 39

#define O_WRONLY 01
#define O_RDWR   02
#define O_CREAT  0100
#define O_TRUNC  01000

#define BIG 65536

static char big[BIG], back[BIG];

static void path(char *out, size_t n, const char *dir, const char *name)
{
	snprintf(out, n, "%s/%s", dir, name);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/disk";
	char a[200], b[200], d[200], dfile[220];

	for (int i = 0; i < BIG; i++)
		big[i] = (char)((i * 7 + 3) & 0xff);
	path(a, sizeof(a), dir, "diskcheck.tmp");
	path(b, sizeof(b), dir, "diskcheck.big");
	long fd = CALL(SYS_open, a, O_RDWR | O_CREAT | O_TRUNC, 0644);
	check("open(DIR/diskcheck.tmp, O_CREAT) >= 0", fd >= 0, 1);
	check("write 64 KiB", CALL(SYS_write, fd, big, BIG), BIG);
	check("fsync(fd)", CALL(SYS_fsync, fd, 0, 0), 0);
	check("fdatasync(fd)", CALL(SYS_fdatasync, fd, 0, 0), 0);
	check("lseek(fd, 0, SEEK_SET)", CALL(SYS_lseek, fd, 0, 0), 0);
	long got = 0, n;
	while (got < BIG && (n = CALL(SYS_read, fd, back + got, BIG - got)) > 0)
		got += n;
	check("read back 64 KiB", got, BIG);
	check("read back is what was written", memcmp(big, back, BIG), 0);
	check("close(fd)", CALL(SYS_close, fd, 0, 0), 0);
	check("fsync(99)", CALL(SYS_fsync, 99, 0, 0), -EBADF);
	check("rename(diskcheck.tmp, diskcheck.big)", CALL(SYS_rename, a, b, 0), 0);
	check("rename(DIR/diskcheck.big, /tmp/x)", CALL(SYS_rename, b, "/tmp/x", 0), -EXDEV);
	check("open(diskcheck.tmp) after rename", CALL(SYS_open, a, 0, 0), -ENOENT);

	path(d, sizeof(d), dir, "diskcheck.d");
	snprintf(dfile, sizeof(dfile), "%s/f", d);
	check("mkdir(DIR/diskcheck.d)", CALL(SYS_mkdir, d, 0755, 0), 0);
	fd = CALL(SYS_open, dfile, O_WRONLY | O_CREAT, 0644);
	check("open(DIR/diskcheck.d/f, O_CREAT) >= 0", fd >= 0, 1);
	CALL(SYS_close, fd, 0, 0);
	check("rmdir(DIR/diskcheck.d) not empty", CALL(SYS_rmdir, d, 0, 0), -ENOTEMPTY);
	check("unlink(DIR/diskcheck.d/f)", CALL(SYS_unlink, dfile, 0, 0), 0);
	check("rmdir(DIR/diskcheck.d)", CALL(SYS_rmdir, d, 0, 0), 0);

	path(a, sizeof(a), dir, "diskcheck.out");
	fd = CALL(SYS_open, a, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check("open(DIR/diskcheck.out) >= 0", fd >= 0, 1);
	check("write(diskcheck.out)", CALL(SYS_write, fd, "diskcheck wrote this\n", 21), 21);
	CALL(SYS_close, fd, 0, 0);
	check("sync()", CALL(SYS_sync, 0, 0, 0), 0);
	return check_summary();
}
