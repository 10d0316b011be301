/*
 * tests/dif/dif_hostenv.c: the host model of the kernel's DIF environment.
 * See dif_hostenv.h for the address map.
 */
#include "tests/dif/dif_hostenv.h"

#include <string.h>

uint8_t *dif_hostenv_ptr(struct dif_hostenv *h, uint64_t addr, uint64_t n,
                         unsigned space)
{
	struct { uint64_t base; uint8_t *mem; unsigned space; } win[] = {
		{ HOSTENV_KMEM, h->kmem, DIF_SPACE_KERNEL },
		{ HOSTENV_VMEM, h->vmem, DIF_SPACE_KERNEL },
		{ HOSTENV_UMEM, h->umem, DIF_SPACE_USER },
	};

	for (size_t i = 0; i < sizeof(win) / sizeof(win[0]); i++)
		if (space == win[i].space && addr >= win[i].base &&
		    n <= HOSTENV_MEMSZ && addr - win[i].base <= HOSTENV_MEMSZ - n)
			return win[i].mem + (addr - win[i].base);
	return NULL;
}

static int he_load(void *ctx, uint64_t addr, unsigned size, unsigned space,
                   uint64_t *val)
{
	struct dif_hostenv *h = ctx;
	uint8_t *p = dif_hostenv_ptr(h, addr, size, space);

	*val = 0;
	if (p == NULL) {
		if (space == DIF_SPACE_KERNEL && addr - HOSTENV_TOXIC < 0x1000)
			return DIF_FAULT_KPRIV;
		if (space == DIF_SPACE_USER && addr - HOSTENV_UPROT < 0x1000)
			return DIF_FAULT_UPRIV;
		return DIF_FAULT_BADADDR;
	}
	memcpy(val, p, size);   /* the host is little-endian */
	return 0;
}

static int he_ustore(void *ctx, uint64_t uaddr, const void *src, size_t n)
{
	uint8_t *p = dif_hostenv_ptr(ctx, uaddr, n, DIF_SPACE_USER);

	if (p == NULL)
		return DIF_FAULT_BADADDR;
	memcpy(p, src, n);
	return 0;
}

static int he_builtin(void *ctx, uint32_t id, uint64_t index, uint64_t *val)
{
	(void)ctx;
	switch (id) {
	case DIF_VAR_ARGS: if (index >= 64) return DIF_FAULT_ILLOP; *val = 0; return 0;
	case DIF_VAR_UREGS: if (index >= 32) return DIF_FAULT_ILLOP;
		*val = 0x1000 + index; return 0;
	case DIF_VAR_PROBEPROV: *val = HOSTENV_PROBEPROV; return 0;
	case DIF_VAR_PROBEMOD: *val = HOSTENV_PROBEMOD; return 0;
	case DIF_VAR_PROBEFUNC: *val = HOSTENV_PROBEFUNC; return 0;
	case DIF_VAR_PROBENAME: *val = HOSTENV_PROBENAME; return 0;
	case DIF_VAR_EXECNAME: *val = HOSTENV_EXECNAME; return 0;
	case DIF_VAR_TIMESTAMP: *val = 1000000007; return 0;
	case DIF_VAR_VTIMESTAMP: *val = 5000; return 0;
	case DIF_VAR_WALLTIMESTAMP: *val = 1764409200000000000ull; return 0;
	case DIF_VAR_CPU: *val = 1; return 0;
	case DIF_VAR_CURTHREAD: *val = HOSTENV_KMEM + 0x800; return 0;
	case DIF_VAR_TID: *val = 7; return 0;
	case DIF_VAR_PID: *val = 42; return 0;
	case DIF_VAR_CALLER: *val = 0xffffffff80101234ull; return 0;
	case DIF_VAR_STACKDEPTH: *val = 3; return 0;
	case DIF_VAR_ERRNO: *val = 0; return 0;
	case DIF_VAR_ID: *val = 17; return 0;
	case DIF_VAR_EPID: *val = 23; return 0;
	case DIF_VAR_PPID: *val = 1; return 0;
	case DIF_VAR_UID: *val = 0; return 0;
	case DIF_VAR_GID: *val = 0; return 0;
	case DIF_VAR_UCALLER: *val = 0x401000; return 0;
	case DIF_VAR_USTACKDEPTH: return DIF_FAULT_BADSTACK;
	case DIF_VAR_CURCPU: *val = HOSTENV_KMEM + 0x900; return 0;
	case DIF_VAR_IPL: *val = 15; return 0;
	default: return DIF_FAULT_ILLOP;
	}
}

/* Serialize the key tuple: per entry a tag byte, then value or bytes. */
static bool he_key(const dif_varref_t *ref, uint8_t *out, uint32_t *len)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < ref->vr_nkeys; i++) {
		const dif_key_t *k = &ref->vr_keys[i];
		uint64_t sz = k->dk_size ? k->dk_size : 8;
		if (n + 9 + sz > HOSTENV_KEYMAX)
			return false;
		out[n++] = k->dk_size ? 'r' : 'v';
		memcpy(out + n, &k->dk_size, 8);
		n += 8;
		memcpy(out + n, k->dk_size ? (const void *)(uintptr_t)k->dk_value :
		       (const void *)&k->dk_value, sz);
		n += (uint32_t)sz;
	}
	*len = n;
	return true;
}

static struct hostenv_var *he_find(struct dif_hostenv *h,
                                   const dif_varref_t *ref, bool create)
{
	uint8_t key[HOSTENV_KEYMAX];
	uint32_t len;
	struct hostenv_var *fr = NULL;

	if (!he_key(ref, key, &len))
		return NULL;
	for (int i = 0; i < HOSTENV_NVARS; i++) {
		struct hostenv_var *v = &h->vars[i];
		if (!v->used) {
			fr = fr ? fr : v;
			continue;
		}
		if (v->scope == ref->vr_var->dv_scope && v->id == ref->vr_var->dv_id &&
		    v->keylen == len && memcmp(v->key, key, len) == 0)
			return v;
	}
	if (!create || fr == NULL)
		return NULL;
	*fr = (struct hostenv_var){ true, ref->vr_var->dv_scope,
	                            ref->vr_var->dv_id, len, { 0 }, 0 };
	memcpy(fr->key, key, len);
	return fr;
}

static int he_var_load(void *ctx, const dif_varref_t *ref, uint64_t *val)
{
	struct hostenv_var *v = he_find(ctx, ref, false);

	*val = v ? v->value : 0;
	return 0;
}

static int he_var_store(void *ctx, const dif_varref_t *ref, uint64_t value,
                        const void *data, size_t size)
{
	struct dif_hostenv *h = ctx;
	struct hostenv_var *v;

	if (value == 0 && data == NULL) {
		if ((v = he_find(h, ref, false)) != NULL)
			v->used = false;
		return 0;
	}
	if ((v = he_find(h, ref, true)) == NULL ||
	    (data && size > HOSTENV_MEMSZ - h->vused)) {
		h->drops++;
		return 0;
	}
	if (data == NULL) {
		v->value = value;
		return 0;
	}
	memcpy(h->vmem + h->vused, data, size);
	v->value = HOSTENV_VMEM + h->vused;
	h->vused += (uint32_t)((size + 7) & ~(size_t)7);
	return 0;
}

static int he_speculation(void *ctx, uint64_t *id)
{
	struct dif_hostenv *h = ctx;

	*id = h->spec_next < 4 ? ++h->spec_next : 0;
	return 0;
}

void dif_hostenv_init(struct dif_hostenv *h)
{
	memset(h, 0, sizeof(*h));
	h->env = (dif_env_t){
		.de_ctx = h, .de_load = he_load, .de_ustore = he_ustore,
		.de_builtin = he_builtin, .de_var_load = he_var_load,
		.de_var_store = he_var_store, .de_speculation = he_speculation,
	};
	strcpy((char *)h->kmem + (HOSTENV_EXECNAME - HOSTENV_KMEM), "sonde-test");
	strcpy((char *)h->kmem + (HOSTENV_PROBEPROV - HOSTENV_KMEM), "fbt");
	strcpy((char *)h->kmem + (HOSTENV_PROBEMOD - HOSTENV_KMEM), "kernel");
	strcpy((char *)h->kmem + (HOSTENV_PROBEFUNC - HOSTENV_KMEM), "kmem_alloc");
	strcpy((char *)h->kmem + (HOSTENV_PROBENAME - HOSTENV_KMEM), "entry");
}

void dif_hostenv_reset(struct dif_hostenv *h)
{
	for (int i = 0; i < HOSTENV_NVARS; i++)
		h->vars[i].used = false;
	h->vused = 0;
	h->spec_next = 0;
	h->drops = 0;
}

bool dif_hostenv_string(struct dif_hostenv *h, uint64_t addr, char *buf,
                        size_t len, const dif_state_t *st,
                        const dif_difo_t *dp)
{
	uint64_t sb = (uintptr_t)st->ds_scratch, tb = (uintptr_t)dp->dd_strtab;
	const uint8_t *p = NULL;
	size_t avail = 0;

	if (st->ds_scratch && addr >= sb && addr < sb + st->ds_scratch_size) {
		p = (const uint8_t *)(uintptr_t)addr;
		avail = sb + st->ds_scratch_size - addr;
	} else if (dp->dd_strtab && addr >= tb && addr < tb + dp->dd_strlen) {
		p = (const uint8_t *)(uintptr_t)addr;
		avail = tb + dp->dd_strlen - addr;
	} else if ((p = dif_hostenv_ptr(h, addr, 1, DIF_SPACE_KERNEL)) != NULL) {
		avail = HOSTENV_MEMSZ - ((addr - HOSTENV_KMEM) % HOSTENV_MEMSZ);
	} else {
		return false;
	}
	for (size_t i = 0; i + 1 < len; i++) {
		buf[i] = i < avail ? (char)p[i] : '\0';
		if (buf[i] == '\0')
			return true;
	}
	buf[len - 1] = '\0';
	return true;
}
