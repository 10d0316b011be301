/*
 * dif/dif_mem.c: how DIF touches memory.
 *
 * A DIF register may hold any 64-bit value, and a program may use any of
 * them as an address. This file is the only place that turns such a value
 * into an access, and it knows exactly three kinds of memory:
 *
 *   - the scratch buffer the caller lent (ds_scratch, ds_scratch_size): read
 *     and written directly, but only inside the part already allocated
 *     (ds_scratch_used), which is where stores, copys and subroutine results
 *     go. The free part faults BADADDR even though it is mapped: it is about
 *     to be handed out, zeroed, by the next allocation, and a string or
 *     key read from there would be overwritten by its own copy;
 *   - the DIFO's string table: read directly, never written;
 *   - everything else: read only through the environment's de_load callback,
 *     which in the kernel is a guarded load that survives a page fault.
 *
 * The embedder may vouch for more (dif_state_own: the kernel's thread name
 * and probe strings, ds_owned): read directly as the string table is.
 *
 * Helpers that need a plain C pointer to bytes that may live anywhere
 * (strings, tuple keys, data for variable stores) get one through
 * dif_readable()/dif_string(): in place when the bytes are direct, otherwise
 * after copying them into scratch through de_load. Every failure is recorded
 * as a fault (code, pc, address) by dif_fault() and returned as its code.
 *
 * Context: probe context; no locks, no allocation beyond the bump pointer.
 *
 * Tests: tests/unit/dif_emulate_test.c; tests/dif/fault_*.dift, load_*.dift;
 *        tests/d/faults
 */
#include "dif/dif_impl.h"

int dif_fault(struct dif_run *r, unsigned code, uint64_t addr)
{
	r->st->ds_fault.df_code = code;
	r->st->ds_fault.df_pc = r->pc;
	r->st->ds_fault.df_addr = addr;
	return (int)code;
}

uint32_t dif_strsize(const struct dif_run *r)
{
	return r->st->ds_strsize ? r->st->ds_strsize : DIF_STRSIZE_DEFAULT;
}

/* [addr, addr + n) inside [base, base + size)? Overflow-safe. */
static bool dif_within(uint64_t addr, uint64_t n, uint64_t base, uint64_t size)
{
	return addr >= base && n <= size && addr - base <= size - n;
}

void dif_state_own(dif_state_t *st, uint64_t base, uint64_t len)
{
	uint32_t n = st->ds_nowned;

	if (len == 0 || base + len < base)
		return;
	for (uint32_t i = 0; i < n && i < DIF_OWNED_MAX; i++)   /* read twice in a clause: once */
		if (st->ds_owned[i].dr_base == base)
			return;
	st->ds_owned[n % DIF_OWNED_MAX] = (dif_range_t){ base, len };
	st->ds_nowned = n + 1;
}

uint64_t dif_owned_span(const dif_state_t *st, uint64_t addr)
{
	uint32_t n = st->ds_nowned < DIF_OWNED_MAX ? st->ds_nowned : DIF_OWNED_MAX;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t off = addr - st->ds_owned[i].dr_base;    /* wraps above len when below base */
		if (off < st->ds_owned[i].dr_len)
			return st->ds_owned[i].dr_len - off;
	}
	return 0;
}

/* Bytes from addr to the end of the directly readable region, 0 if none. */
static uint64_t dif_direct_span(const struct dif_run *r, uint64_t addr)
{
	uint64_t sb = dif_addr(r->st->ds_scratch), tb = dif_addr(r->dp->dd_strtab);

	if (r->st->ds_scratch && dif_within(addr, 1, sb, r->st->ds_scratch_used))
		return sb + r->st->ds_scratch_used - addr;
	if (r->dp->dd_strtab && dif_within(addr, 1, tb, r->dp->dd_strlen))
		return tb + r->dp->dd_strlen - addr;
	return r->st->ds_nowned != 0 ? dif_owned_span(r->st, addr) : 0;
}

uint64_t dif_inplace_span(const dif_state_t *st, const dif_difo_t *dp, uint64_t addr)
{
	struct dif_run r = { .dp = dp, .st = (dif_state_t *)(uintptr_t)st };
	uint64_t tb = dif_addr(dp->dd_strtab);

	if (st == NULL)
		return dp->dd_strtab && dif_within(addr, 1, tb, dp->dd_strlen) ?
		       tb + dp->dd_strlen - addr : 0;
	return dif_direct_span(&r, addr);
}

const uint8_t *dif_direct(const struct dif_run *r, uint64_t addr, uint64_t n)
{
	uint64_t span = dif_direct_span(r, addr);

	return span != 0 && n <= span ? (const uint8_t *)(uintptr_t)addr : NULL;
}

/* Does [addr, addr + n) touch the free (unallocated) part of scratch? */
static bool dif_free_scratch(const struct dif_run *r, uint64_t addr, uint64_t n)
{
	const dif_state_t *st = r->st;
	uint64_t lo = dif_addr(st->ds_scratch) + st->ds_scratch_used;
	uint64_t hi = dif_addr(st->ds_scratch) + st->ds_scratch_size;

	if (st->ds_scratch == NULL || n == 0)
		return false;
	if (addr + n < addr)
		return addr < hi;                /* wraps: ends above everything */
	return addr < hi && addr + n > lo;
}

/* Allocate n zeroed bytes of scratch, 8-aligned. */
int dif_scratch_alloc(struct dif_run *r, uint64_t n, uint8_t **p)
{
	dif_state_t *st = r->st;
	uint64_t off = (st->ds_scratch_used + 7) & ~(uint64_t)7;

	if (st->ds_scratch == NULL || off > st->ds_scratch_size ||
	    n > st->ds_scratch_size - off)
		return dif_fault(r, DIF_FAULT_NOSCRATCH, n);
	*p = st->ds_scratch + off;
	__builtin_memset(*p, 0, n);
	st->ds_scratch_used = off + n;
	return 0;
}

/* [addr, addr + n) inside the allocated scratch? */
int dif_scratch_writable(struct dif_run *r, uint64_t addr, uint64_t n,
                         uint8_t **p)
{
	dif_state_t *st = r->st;

	if (st->ds_scratch == NULL ||
	    !dif_within(addr, n, dif_addr(st->ds_scratch), st->ds_scratch_used))
		return dif_fault(r, DIF_FAULT_BADADDR, addr);
	*p = (uint8_t *)(uintptr_t)addr;
	return 0;
}

uint64_t dif_value_at(const uint8_t *p, unsigned size)
{
	uint8_t b1; uint16_t b2; uint32_t b4; uint64_t b8;

	switch (size) {
	case 1: __builtin_memcpy(&b1, p, 1); return b1;
	case 2: __builtin_memcpy(&b2, p, 2); return b2;
	case 4: __builtin_memcpy(&b4, p, 4); return b4;
	default: __builtin_memcpy(&b8, p, 8); return b8;
	}
}

/* A typed load: alignment, then direct memory, then the environment. */
int dif_load(struct dif_run *r, uint64_t addr, unsigned size, unsigned space,
             uint64_t *val)
{
	const uint8_t *p;
	int f;

	if (addr & (size - 1))
		return dif_fault(r, DIF_FAULT_BADALIGN, addr);
	if (space == DIF_SPACE_KERNEL && (p = dif_direct(r, addr, size)) != NULL) {
		*val = dif_value_at(p, size);
		return 0;
	}
	if (space == DIF_SPACE_KERNEL && dif_free_scratch(r, addr, size))
		return dif_fault(r, DIF_FAULT_BADADDR, addr);
	f = r->env->de_load(r->env->de_ctx, addr, size, space, val);
	return f ? dif_fault(r, (unsigned)f, addr) : 0;
}

/* Copy n bytes from addr (any memory) to dst (host memory). */
int dif_copy_in(struct dif_run *r, void *dst, uint64_t addr, uint64_t n,
                unsigned space)
{
	uint8_t *d = dst;
	const uint8_t *p;
	uint64_t v;
	unsigned sz;
	int f;

	if (space == DIF_SPACE_KERNEL && (p = dif_direct(r, addr, n)) != NULL) {
		__builtin_memmove(d, p, n);      /* bcopy/copys may overlap */
		return 0;
	}
	for (uint64_t i = 0; i < n; i += sz, d += sz) {
		sz = ((addr + i) & 7) == 0 && n - i >= 8 ? 8 : 1;
		if ((f = dif_load(r, addr + i, sz, space, &v)) != 0)
			return f;
		if (sz == 8)
			__builtin_memcpy(d, &v, 8);
		else
			*d = (uint8_t)v;
	}
	return 0;
}

/* A host pointer to n bytes at addr: in place if direct, else a scratch copy. */
int dif_readable(struct dif_run *r, uint64_t addr, uint64_t n,
                 const uint8_t **p)
{
	uint8_t *copy;
	int f;

	if ((*p = dif_direct(r, addr, n)) != NULL)
		return 0;
	if (dif_free_scratch(r, addr, n))        /* check before allocating */
		return dif_fault(r, DIF_FAULT_BADADDR, addr);
	if ((f = dif_scratch_alloc(r, n, &copy)) != 0)
		return f;
	*p = copy;
	return dif_copy_in(r, copy, addr, n, DIF_SPACE_KERNEL);
}

/* copys, bcopy, copyinto: n bytes from src (any memory) to dst in allocated scratch. */
int dif_scratch_copy(struct dif_run *r, uint64_t dst, uint64_t src, uint64_t n,
                     unsigned space)
{
	uint8_t *p;
	int f;

	if ((f = dif_scratch_writable(r, dst, n, &p)) != 0)
		return f;
	return dif_copy_in(r, p, src, n, space);
}

/* Length of the string at addr, reading through dif_load, < bound. */
static int dif_strlen_at(struct dif_run *r, uint64_t addr, uint64_t bound,
                         unsigned space, size_t *len)
{
	uint64_t v;
	size_t n;
	int f;

	for (n = 0; n + 1 < bound; n++) {
		if ((f = dif_load(r, addr + n, 1, space, &v)) != 0)
			return f;
		if (v == 0)
			break;
	}
	*len = n;
	return 0;
}

/*
 * A NUL-terminated host copy of the string at addr, at most bound - 1
 * characters (bound is clipped to strsize). In place when the string is
 * direct and terminated within the bound. Otherwise the length is found
 * first and the copy allocated after, so that the copy can never overlap
 * its source.
 */
int dif_string(struct dif_run *r, uint64_t addr, uint64_t bound,
               unsigned space, const char **p, size_t *len)
{
	uint64_t span;
	uint8_t *copy;
	size_t n;
	int f;

	if (bound == 0 || bound > dif_strsize(r))
		bound = dif_strsize(r);
	span = space == DIF_SPACE_KERNEL ? dif_direct_span(r, addr) : 0;
	if (span != 0 && (n = dif_nlen((const char *)(uintptr_t)addr,
	    span < bound ? span : bound)) < bound && n < span) {
		*p = (const char *)(uintptr_t)addr;
		*len = n;
		return 0;
	}
	if ((f = dif_strlen_at(r, addr, bound, space, &n)) != 0 ||
	    (f = dif_scratch_alloc(r, n + 1, &copy)) != 0 ||
	    (f = dif_copy_in(r, copy, addr, n, space)) != 0)
		return f;
	copy[n] = '\0';
	*p = (const char *)copy;
	*len = n;
	return 0;
}

static int dif_byte(struct dif_run *r, uint64_t addr, uint8_t *c)
{
	const uint8_t *p = dif_direct(r, addr, 1);
	uint64_t v;
	int f;

	if (p != NULL) {
		*c = *p;
		return 0;
	}
	f = dif_load(r, addr, 1, DIF_SPACE_KERNEL, &v);
	*c = (uint8_t)v;
	return f;
}

/*
 * strcmp of the strings at a and b, bounded by strsize; *res < 0, 0, > 0.
 * The direct part of each (scratch, the string table, owned memory) is
 * found once and read in place; a byte beyond it goes through dif_byte,
 * and so through de_load's check and its fault, as before.
 */
int dif_strcmp_at(struct dif_run *r, uint64_t a, uint64_t b, int *res)
{
	uint32_t bound = dif_strsize(r);
	uint64_t sa, sb;
	uint8_t ca, cb;
	int f;

	*res = 0;
	if (a == b)
		return 0;
	sa = dif_direct_span(r, a);
	sb = dif_direct_span(r, b);
	for (uint32_t i = 0; i + 1 < bound; i++) {
		if (i < sa)
			ca = *(const uint8_t *)(uintptr_t)(a + i);
		else if ((f = dif_byte(r, a + i, &ca)) != 0)
			return f;
		if (i < sb)
			cb = *(const uint8_t *)(uintptr_t)(b + i);
		else if ((f = dif_byte(r, b + i, &cb)) != 0)
			return f;
		if (ca != cb) {
			*res = ca < cb ? -1 : 1;
			return 0;
		}
		if (ca == '\0')
			return 0;
	}
	return 0;
}
