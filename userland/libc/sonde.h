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

#endif
