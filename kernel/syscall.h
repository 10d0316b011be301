/*
 * syscall.h - the system call table, for the syscall provider.
 *
 * The table is kernel/syscalls.def.  Each number's handler is called
 * through a slot that the syscall provider (trace/prov_syscall.c) may point
 * at its own stub while a probe of that call is enabled and back at the
 * handler afterwards: as DTrace's provider patches the system call table,
 * a call whose probes are disabled runs exactly the code it runs without
 * the provider.
 */
#ifndef SONDE_SYSCALL_H
#define SONDE_SYSCALL_H

#include <stdint.h>

#define SYSCALL_MAX 512

typedef int64_t syscall_fn(const uint64_t a[6]);

/* syscall_name: the name of call nr in the table (nargs: its argument count), or NULL.  Any context. */
const char *syscall_name(uint64_t nr, int *nargs);

/* syscall_handler: the handler of nr (NULL: not linked in, ENOSYS).  Any context. */
syscall_fn *syscall_handler(uint64_t nr);

/*
 * syscall_route: from now on calls to nr go to fn (NULL: back to the
 * handler).  A call already inside the old slot's function finishes
 * there.  Thread context.
 */
void syscall_route(uint64_t nr, syscall_fn *fn);

#endif
