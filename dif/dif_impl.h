/*
 * dif/dif_impl.h: private interface between the interpreter (dif_emulate.c),
 * its memory helpers (dif_mem.c) and the subroutines (dif_subr.c), and two
 * string helpers the text form and the tables use as well (dif_nlen,
 * dif_name_eq). Not for use outside dif/.
 *
 * A run (struct dif_run) bundles the DIFO, the per-CPU state and the pc of
 * the instruction being executed, so that any helper can raise a fault with
 * the right pc. Every helper that can fail returns 0 or a DIF_FAULT_* code
 * and has already recorded the fault in st->ds_fault when it returns
 * nonzero; callers just propagate the code.
 */
#ifndef SONDE_DIF_DIF_IMPL_H
#define SONDE_DIF_DIF_IMPL_H

#include "dif/dif.h"

struct dif_run {
	const dif_difo_t *dp;
	dif_state_t      *st;
	const dif_env_t  *env;
	uint32_t          pc;
};

/* dif_mem.c: faults, scratch, and safe access to memory by address. */
int dif_fault(struct dif_run *r, unsigned code, uint64_t addr);
uint32_t dif_strsize(const struct dif_run *r);
const uint8_t *dif_direct(const struct dif_run *r, uint64_t addr, uint64_t n);
int dif_scratch_alloc(struct dif_run *r, uint64_t n, uint8_t **p);
int dif_scratch_writable(struct dif_run *r, uint64_t addr, uint64_t n,
                         uint8_t **p);
int dif_load(struct dif_run *r, uint64_t addr, unsigned size, unsigned space,
             uint64_t *val);
int dif_copy_in(struct dif_run *r, void *dst, uint64_t addr, uint64_t n,
                unsigned space);
int dif_scratch_copy(struct dif_run *r, uint64_t dst, uint64_t src, uint64_t n,
                     unsigned space);
int dif_readable(struct dif_run *r, uint64_t addr, uint64_t n,
                 const uint8_t **p);
int dif_string(struct dif_run *r, uint64_t addr, uint64_t bound,
               unsigned space, const char **p, size_t *len);
int dif_strcmp_at(struct dif_run *r, uint64_t a, uint64_t b, int *res);

static inline uint64_t dif_addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* Length of the string at s if a NUL occurs in the first n bytes, else n. */
static inline size_t dif_nlen(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] != '\0')
		i++;
	return i;
}

/* Is the n-byte name a (not NUL-terminated) equal to the string b? */
static inline bool dif_name_eq(const char *a, size_t n, const char *b)
{
	size_t i = 0;

	while (i < n && b[i] != '\0' && a[i] == b[i])
		i++;
	return i == n && b[i] == '\0';
}

/* dif_subr.c: run subroutine `id` on the tuple stack's entries. */
int dif_subr_call(struct dif_run *r, unsigned id, const dif_key_t *args,
                  uint32_t nargs, uint64_t *ret);

/* dif_subr.c: string helpers the subroutines in other files share. */
int dif_arg_str(struct dif_run *r, const dif_key_t *a, const char **s,
                size_t *len);
int dif_ret_copy(struct dif_run *r, const char *s, size_t len, uint64_t *ret);

/* dif_subr_net.c: paths, device numbers and network addresses. */
#define DIF_SUBR_NET_FN(name) \
	int dif_subr_##name(struct dif_run *r, const dif_key_t *a, uint32_t n, \
	                    uint64_t *ret)
DIF_SUBR_NET_FN(cleanpath);
DIF_SUBR_NET_FN(getmajor);
DIF_SUBR_NET_FN(getminor);
DIF_SUBR_NET_FN(inet_ntoa);
DIF_SUBR_NET_FN(inet_ntoa6);
DIF_SUBR_NET_FN(inet_ntop);
DIF_SUBR_NET_FN(link_ntop);

/* dif_subr_bag.c: causal baggage through de_bag. */
DIF_SUBR_NET_FN(bag_pack);
DIF_SUBR_NET_FN(bag_get);
DIF_SUBR_NET_FN(bag_getstr);

#endif /* SONDE_DIF_DIF_IMPL_H */
