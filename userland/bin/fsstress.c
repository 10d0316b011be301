/*
 * fsstress - many processes doing mixed file operations, every byte checked.
 *
 *   fsstress DIR [PROCS [OPS [SEED]]]      (defaults: 4 processes, 1000 ops, seed 1)
 *
 * Each of PROCS children works in a directory of its own, DIR/sN, on up
 * to FILES files, and does OPS operations chosen at random (its own
 * seed): create a file with a pattern, append to it, read it all back and
 * compare, rename it, unlink it, truncate it (O_TRUNC), stat it and
 * compare the size, make and remove a subdirectory.  It keeps a model of
 * what each file must hold: byte k of a file is pattern(seed, k), so
 * appends continue the pattern and any byte read can be checked.  At the
 * end each child checks every file against the model, removes them and
 * its directory, and prints one line:
 *
 *   fsstress: s2: 1000 ops, 0 errors
 *
 * then the parent waits for all and prints the total; the exit status is
 * the number of errors (capped at 255).  An error is a call that failed
 * when the model says it must succeed, or bytes or a size that differ;
 * the first few are printed with what was asked.  With DIR on /disk (the
 * ext2 disk) and 4 CPUs this is the disk's stress test (tests/e2e/test_disk.py,
 * make bench); on /tmp it checks tmpfs the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "userland/libc/sonde.h"

#define FILES      8
#define CHUNK      3000             /* bytes per write at most: crosses 1 KiB blocks */
#define MAX_SIZE   (96 * 1024)      /* a file stops growing here: past ext2's direct blocks */
#define PATH_MAX_  160
#define SHOW_ERRORS 5

struct model {
	int m_exists;
	unsigned m_seed;                /* its pattern */
	long m_size;
	int m_gen;                      /* names it has had: renames make new ones */
};

static struct model files[FILES];
static char dir[PATH_MAX_ / 2];           /* DIR/sN: DIR is at most 64 bytes */
static int errors;
static unsigned rng;
static unsigned char buf[CHUNK], rbuf[CHUNK];

static unsigned next_rand(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

static unsigned char pattern(unsigned seed, long k)
{
	return (unsigned char)((seed * 131u + (unsigned)k * 31u + (unsigned)(k >> 10)) & 0xff);
}

static void name_of(int i, char *out)
{
	snprintf(out, PATH_MAX_, "%s/f%d.%d", dir, i, files[i].m_gen);
}

static void fail(const char *what, const char *path, long got, long want)
{
	if (++errors <= SHOW_ERRORS)
		printf("fsstress: %s: %s %s: got %ld, want %ld\n", dir, what, path, got, want);
}

/* write_pattern: n bytes of file i's pattern from offset off, to fd. */
static void write_pattern(int fd, int i, long off, long n, const char *path)
{
	while (n > 0) {
		long c = n < CHUNK ? n : CHUNK;
		for (long k = 0; k < c; k++)
			buf[k] = pattern(files[i].m_seed, off + k);
		long w = write(fd, buf, (size_t)c);
		if (w != c) {
			fail("write", path, w, c);
			return;
		}
		off += c;
		n -= c;
	}
}

/* check_file: read file i whole and compare it with the model. */
static void check_file(int i)
{
	char path[PATH_MAX_];
	struct stat st;

	name_of(i, path);
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		fail("open for reading", path, fd, 0);
		return;
	}
	long off = 0, r;
	while ((r = read(fd, rbuf, sizeof(rbuf))) > 0) {
		for (long k = 0; k < r; k++) {
			if (rbuf[k] != pattern(files[i].m_seed, off + k)) {
				fail("byte at", path, off + k, -1);
				close(fd);
				return;
			}
		}
		off += r;
	}
	if (r < 0 || off != files[i].m_size)
		fail("bytes read", path, r < 0 ? r : off, files[i].m_size);
	if (fstat(fd, &st) != 0 || st.st_size != files[i].m_size)
		fail("fstat size", path, (long)st.st_size, files[i].m_size);
	close(fd);
}

static void op_create(int i)
{
	char path[PATH_MAX_];

	files[i].m_gen++;
	files[i].m_seed = next_rand();
	name_of(i, path);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		fail("create", path, fd, 0);
		return;
	}
	long n = next_rand() % (2 * CHUNK + 1);
	files[i].m_exists = 1;
	files[i].m_size = n;
	write_pattern(fd, i, 0, n, path);
	close(fd);
}

static void op_append(int i)
{
	char path[PATH_MAX_];

	name_of(i, path);
	if (files[i].m_size >= MAX_SIZE)
		return;
	int fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0) {
		fail("open for appending", path, fd, 0);
		return;
	}
	long n = 1 + next_rand() % CHUNK;
	write_pattern(fd, i, files[i].m_size, n, path);
	files[i].m_size += n;
	close(fd);
}

static void op_rename(int i)
{
	char from[PATH_MAX_], to[PATH_MAX_];

	name_of(i, from);
	files[i].m_gen++;
	name_of(i, to);
	long r = sonde_syscall(SYS_rename, (long)from, (long)to, 0, 0, 0, 0);
	if (r != 0)
		fail("rename", from, r, 0);
}

static void op_unlink(int i)
{
	char path[PATH_MAX_];

	name_of(i, path);
	int r = unlink(path);
	if (r != 0)
		fail("unlink", path, r, 0);
	files[i].m_exists = 0;
}

static void op_truncate(int i)
{
	char path[PATH_MAX_];

	name_of(i, path);
	int fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		fail("open O_TRUNC", path, fd, 0);
		return;
	}
	files[i].m_size = 0;
	close(fd);
}

static void op_stat(int i)
{
	char path[PATH_MAX_];
	struct stat st;

	name_of(i, path);
	int r = stat(path, &st);
	if (r != 0 || st.st_size != files[i].m_size)
		fail("stat size", path, r != 0 ? r : (long)st.st_size, files[i].m_size);
}

static void op_subdir(void)
{
	char path[PATH_MAX_];

	snprintf(path, sizeof(path), "%s/d%u", dir, next_rand() % 1000);
	int r = mkdir(path, 0755);
	if (r != 0)
		fail("mkdir", path, r, 0);
	else if ((r = rmdir(path)) != 0)
		fail("rmdir", path, r, 0);
}

static void one_op(void)
{
	int i = (int)(next_rand() % FILES);
	unsigned what = next_rand() % 16;

	if (!files[i].m_exists) {
		op_create(i);
		return;
	}
	if (what < 4)
		op_append(i);
	else if (what < 7)
		check_file(i);
	else if (what < 9)
		op_rename(i);
	else if (what < 10)
		op_unlink(i);
	else if (what < 11)
		op_truncate(i);
	else if (what < 14)
		op_stat(i);
	else
		op_subdir();
}

static int child(const char *root, int n, long ops, unsigned seed)
{
	snprintf(dir, sizeof(dir), "%s/s%d", root, n);
	rng = seed * 7919u + (unsigned)n * 104729u + 1;
	int r = mkdir(dir, 0755);
	if (r != 0) {
		fail("mkdir", dir, r, 0);
		printf("fsstress: s%d: 0 ops, %d errors\n", n, errors);
		return errors;
	}
	for (long k = 0; k < ops; k++)
		one_op();
	for (int i = 0; i < FILES; i++) {
		if (files[i].m_exists) {
			check_file(i);
			op_unlink(i);
		}
	}
	if ((r = rmdir(dir)) != 0)
		fail("rmdir", dir, r, 0);
	printf("fsstress: s%d: %ld ops, %d errors\n", n, ops, errors);
	return errors > 255 ? 255 : errors;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 5) {
		fprintf(stderr, "usage: fsstress DIR [PROCS [OPS [SEED]]]\n");
		return 2;
	}
	int procs = argc > 2 ? atoi(argv[2]) : 4;
	long ops = argc > 3 ? atol(argv[3]) : 1000;
	unsigned seed = argc > 4 ? (unsigned)atol(argv[4]) : 1;
	if (procs < 1 || procs > 32 || ops < 0 || strlen(argv[1]) > 64) {
		fprintf(stderr, "fsstress: PROCS is 1 to 32, OPS at least 0, DIR at most 64 bytes\n");
		return 2;
	}
	fflush(stdout);
	for (int n = 0; n < procs; n++) {
		pid_t p = fork();
		if (p == 0)
			exit(child(argv[1], n, ops, seed));
		if (p < 0) {
			fprintf(stderr, "fsstress: fork failed\n");
			return 2;
		}
	}
	int total = 0, st;
	for (int n = 0; n < procs; n++) {
		if (wait(&st) < 0)
			break;
		total += WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	}
	printf("fsstress: %d processes, %ld ops, %d errors\n", procs, ops * procs, total);
	return total > 255 ? 255 : total;
}
