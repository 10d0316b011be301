/*
 * trace/dof.h: the kernel's DOF loader (trace/dof.c).
 *
 * Context: thread context or the host (tests, the fuzzer); pure apart from
 * the arena it is lent.
 *
 * Tests: tests/unit/trace_dof_test.c, tests/fuzz/dof_fuzz.c, tests/d.
 */
#ifndef SONDE_TRACE_DOF_H
#define SONDE_TRACE_DOF_H

#include <stddef.h>
#include "dlang/dt_prog.h"

/*
 * dof_load: parse and validate the DOF in buf[0..len) (dif/dof.h) and build
 * the program it describes in arena[0..arenasz) (8-byte aligned): every
 * table is copied, so nothing of buf is referenced afterwards.  Every DIF
 * object passes dif_validate (destructive subroutines and user memory
 * allowed: the enabling judges those against its state).  Returns 0 and
 * *out, or DTRACE_EINVAL with a message naming the fault in err (DOF is
 * malformed), DTRACE_EDIF (a DIF object failed validation), DTRACE_ENOMEM
 * (the arena is too small: dof_arena_size's estimate is always enough for
 * well-formed DOF).  Never reads outside buf, whatever it holds.
 */
int dof_load(const void *buf, size_t len, void *arena, size_t arenasz, dt_prog **out,
             char *err, size_t errlen);

/* dof_arena_size: an arena that holds the program of any len-byte DOF. */
size_t dof_arena_size(size_t len);

#endif
