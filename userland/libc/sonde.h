/*
 * sonde.h - what Sonde's C library adds to newlib for user programs.
 *
 * sonde_syscall: system call nr with up to six arguments, as the kernel
 * sees it: the raw result, a negative errno on failure (errno untouched).
 * SYS_<name>: the numbers, from kernel/syscalls.def.
 */
#ifndef SONDE_LIBC_H
#define SONDE_LIBC_H

enum {
#define SYSCALL(nr, name, nargs) SYS_##name = nr,
#include "kernel/syscalls.def"
};

long sonde_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5);
int sched_yield(void);
struct timespec;
int nanosleep(const struct timespec *req, struct timespec *rem);   /* newlib's <time.h> hides it */

/* setresuid(2) and friends (newlib's <unistd.h> has only setuid, seteuid, ...): (uid_t)-1 keeps an id. */
#include <sys/types.h>
int setresuid(uid_t r, uid_t e, uid_t s);
int setresgid(gid_t r, gid_t e, gid_t s);
int getresuid(uid_t *r, uid_t *e, uid_t *s);
int getresgid(gid_t *r, gid_t *e, gid_t *s);

/* mmap(2) and munmap(2) (newlib has no <sys/mman.h>): anonymous memory only. */
#include <stddef.h>
#include <sys/types.h>
#define PROT_NONE     0
#define PROT_READ     1
#define PROT_WRITE    2
#define PROT_EXEC     4
#define MAP_PRIVATE   0x02
#define MAP_FIXED     0x10
#define MAP_ANONYMOUS 0x20
#define MAP_FAILED    ((void *)-1)
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int munmap(void *addr, size_t len);

/*
 * sonde_getdents64: getdents64(2): directory entries of fd as struct
 * sonde_dirent64 records (Linux's linux_dirent64), d_reclen bytes each;
 * bytes filled, 0 at the end, -1 with errno.  (newlib has no <dirent.h>.)
 */
#include <stdint.h>
struct sonde_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};
#define SONDE_DT_DIR 4
#define SONDE_DT_REG 8
#define SONDE_DT_CHR 2
int sonde_getdents64(int fd, void *buf, size_t n);

#endif
