/*
 * tests/dif/dif_hostenv.h: a checked model of the kernel for running DIF on
 * the host (vector runner, unit tests, fuzzer, benchmark).
 *
 * The model's address space is a few fixed windows; everything else is
 * unmapped (BADADDR). The addresses are small integers, not host pointers,
 * so a DIF program can only reach host memory through dif/'s direct paths
 * (scratch and the string table), which is exactly what the kernel allows.
 *
 *   HOSTENV_KMEM  0x100000  64 KiB kernel data (vectors fill it via -- mem)
 *   HOSTENV_VMEM  0x110000  64 KiB storage of by-ref variables
 *   HOSTENV_TOXIC 0x120000   4 KiB "device memory": loads fault KPRIV
 *   HOSTENV_UMEM  0x200000  64 KiB user memory (uld*, copyin, copyout)
 *   HOSTENV_UPROT 0x210000   4 KiB user page without access: UPRIV
 *
 * Built-ins have fixed values (see dif_hostenv.c); ustackdepth faults
 * BADSTACK. Variables of every scope live in one small table keyed by
 * (scope, id, serialized key tuple).
 */
#ifndef SONDE_TESTS_DIF_HOSTENV_H
#define SONDE_TESTS_DIF_HOSTENV_H

#include "dif/dif.h"

#define HOSTENV_KMEM   0x100000u
#define HOSTENV_VMEM   0x110000u
#define HOSTENV_TOXIC  0x120000u
#define HOSTENV_UMEM   0x200000u
#define HOSTENV_UPROT  0x210000u
#define HOSTENV_MEMSZ  0x10000u
#define HOSTENV_NVARS  256
#define HOSTENV_KEYMAX 512

/* Model addresses of the strings built-ins return (inside KMEM). */
#define HOSTENV_EXECNAME  (HOSTENV_KMEM + 0xff00u)   /* "sonde-test" */
#define HOSTENV_PROBEPROV (HOSTENV_KMEM + 0xff20u)   /* "fbt" */
#define HOSTENV_PROBEMOD  (HOSTENV_KMEM + 0xff40u)   /* "kernel" */
#define HOSTENV_PROBEFUNC (HOSTENV_KMEM + 0xff60u)   /* "kmem_alloc" */
#define HOSTENV_PROBENAME (HOSTENV_KMEM + 0xff80u)   /* "entry" */

struct hostenv_var {
	bool     used;
	uint8_t  scope;
	uint32_t id;
	uint32_t keylen;
	uint8_t  key[HOSTENV_KEYMAX];
	uint64_t value;
};

struct dif_hostenv {
	dif_env_t env;
	uint8_t   kmem[HOSTENV_MEMSZ];
	uint8_t   vmem[HOSTENV_MEMSZ];
	uint8_t   umem[HOSTENV_MEMSZ];
	uint32_t  vused;
	uint64_t  spec_next;
	uint64_t  drops;         /* variable stores that did not fit */
	struct hostenv_var vars[HOSTENV_NVARS];
};

void dif_hostenv_init(struct dif_hostenv *h);

/* Forget all variables (memory windows keep their contents). */
void dif_hostenv_reset(struct dif_hostenv *h);

/* Host pointer for model address [addr, addr + n), or NULL. */
uint8_t *dif_hostenv_ptr(struct dif_hostenv *h, uint64_t addr, uint64_t n,
                         unsigned space);

/* Read a NUL-terminated string at addr (model, or direct host pointer when
 * it lies in [lo, hi)) into buf; returns false if unreadable. */
bool dif_hostenv_string(struct dif_hostenv *h, uint64_t addr, char *buf,
                        size_t len, const dif_state_t *st,
                        const dif_difo_t *dp);

#endif
