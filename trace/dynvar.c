/*
 * dynvar.c - D variables: globals, thread-locals, clause-locals and
 * associative arrays.
 *
 * Global scalars live in a table of fixed slots (one per variable id).
 * Clause-locals (this->) live in a per-CPU table of the same shape, zeroed
 * at each probe firing.  Thread-locals (self->) and associative array
 * elements are dynamic variables: entries of one fixed size carved from the
 * dynvarsize space at enabling time, found through a hash on (variable,
 * thread, key tuple), and returned to the free list when 0 is stored.  When
 * the space is exhausted a store is dropped and counted ("N dynamic variable
 * drops"); probe context never allocates.
 *
 * A slot or entry value is either an integer (8 bytes) or a string's bytes
 * (up to strsize, NUL-terminated), preceded by an 8-byte "set" word so that
 * an unset string reads as 0 (NULL).
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "trace/trace_impl.h"

typedef struct dynvar {
	uint32_t dv_next;                 /* chunk index+1 in the chain or free list */
	uint32_t dv_hash;
	uint32_t dv_varid;
	uint32_t dv_keylen;
	uint64_t dv_set;                  /* value present */
	/* key bytes (keylen), then the value (slot bytes) */
} dynvar_t;

static uint32_t slot_size(const dtrace_state_t *s)
{
	return (uint32_t)MAX(8, ALIGN_UP(s->dts_opts.dov_strsize, 8));
}

/* key_size_max: the longest serialized key the program can make. */
static uint32_t key_size_max(const dtrace_state_t *s)
{
	uint32_t nkeys = 0;

	for (uint32_t i = 0; i < s->dts_prog->dp_nvars; i++)
		nkeys = MAX(nkeys, s->dts_prog->dp_vars[i].vd_nkeys);
	return 8 + nkeys * (8 + slot_size(s));
}

static uint32_t difo_locals(const dif_difo_t *dp)
{
	uint32_t n = 0;

	for (uint32_t i = 0; dp != NULL && i < dp->dd_nvars; i++)
		if (dp->dd_vartab[i].dv_scope == DIF_SCOPE_LOCAL)
			n = MAX(n, dp->dd_vartab[i].dv_id - DIF_VAR_USER_BASE + 1);
	return n;
}

/* locals_used: how many clause-local slots the program's DIFOs name (firings zero only these). */
static uint32_t locals_used(const dtrace_state_t *s)
{
	const dt_prog *p = s->dts_prog;
	uint32_t n = 0;

	for (uint32_t c = 0; c < p->dp_nclauses; c++) {
		const dt_clause *cl = &p->dp_clauses[c];
		n = MAX(n, difo_locals(cl->cl_pred));
		for (uint32_t a = 0; a < cl->cl_nacts; a++)
			for (uint32_t k = 0; k < cl->cl_acts[a].ac_nargs; k++)
				n = MAX(n, difo_locals(cl->cl_acts[a].ac_args[k]));
	}
	return MIN(n, (uint32_t)TRACE_MAXLOCALS);
}

int dtrace_dynvar_init(dtrace_state_t *s)
{
	dtrace_dynvar_space_t *d = &s->dts_dyn;
	uint32_t maxid = 0;

	for (uint32_t i = 0; i < s->dts_prog->dp_nvars; i++)
		if (s->dts_prog->dp_vars[i].vd_scope == DIF_SCOPE_GLOBAL)
			maxid = MAX(maxid, s->dts_prog->dp_vars[i].vd_id - DIF_VAR_USER_BASE + 1);
	s->dts_slot = 8 + slot_size(s);
	s->dts_nglobals = maxid;
	s->dts_globals = kzalloc((size_t)MAX(maxid, 1) * s->dts_slot);
	d->dds_keymax = key_size_max(s);
	d->dds_chunk = (uint32_t)ALIGN_UP(sizeof(dynvar_t) + d->dds_keymax + slot_size(s), 8);
	d->dds_size = s->dts_opts.dov_dynvarsize;
	d->dds_nchunks = (uint32_t)MIN(d->dds_size / d->dds_chunk, 1u << 24);
	d->dds_nbuckets = MAX(d->dds_nchunks, 1);
	d->dds_base = kmalloc(MAX((uint64_t)d->dds_nchunks * d->dds_chunk, 8));
	d->dds_bucket = kzalloc(d->dds_nbuckets * sizeof(uint32_t));
	if (s->dts_globals == NULL || d->dds_base == NULL || d->dds_bucket == NULL)
		return DTRACE_ENOMEM;
	for (uint32_t i = 0; i < d->dds_nchunks; i++)
		((dynvar_t *)(d->dds_base + (uint64_t)i * d->dds_chunk))->dv_next =
			i + 1 < d->dds_nchunks ? i + 2 : 0;
	d->dds_free = d->dds_nchunks ? 1 : 0;
	s->dts_nlocals = locals_used(s);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		s->dts_locals[cpu] = kzalloc(TRACE_MAXLOCALS * s->dts_slot);
		if (s->dts_locals[cpu] == NULL)
			return DTRACE_ENOMEM;
	}
	return 0;
}

void dtrace_dynvar_fini(dtrace_state_t *s)
{
	kfree(s->dts_globals);
	kfree(s->dts_dyn.dds_base);
	kfree(s->dts_dyn.dds_bucket);
	for (int cpu = 0; cpu < TRACE_MAXCPUS; cpu++)
		kfree(s->dts_locals[cpu]);
}

/* ---- probe context ---- */

/* key_serialize: (thread?, tuple) into buf; returns the length, 0 if too long. */
static uint32_t key_serialize(const dtrace_state_t *s, const dif_varref_t *ref, uint8_t *buf,
                              uint32_t max)
{
	uint32_t n = 0;

	if (ref->vr_var->dv_scope == DIF_SCOPE_THREAD) {
		uint64_t tid = curthread()->t_tid;
		memcpy(buf, &tid, 8);
		n = 8;
	}
	for (uint32_t i = 0; i < ref->vr_nkeys; i++) {
		const dif_key_t *k = &ref->vr_keys[i];
		uint32_t len = k->dk_size ? (uint32_t)MIN(k->dk_size, slot_size(s)) : 8;
		if (n + 8 + ALIGN_UP(len, 8) > max)
			return 0;
		uint64_t hdr = ((uint64_t)(k->dk_size != 0) << 32) | len;
		memcpy(buf + n, &hdr, 8);
		memset(buf + n + 8, 0, ALIGN_UP(len, 8));
		memcpy(buf + n + 8, k->dk_size ? (const void *)k->dk_value : &k->dk_value, len);
		n += 8 + (uint32_t)ALIGN_UP(len, 8);
	}
	return n;
}

static dynvar_t *dv_at(dtrace_dynvar_space_t *d, uint32_t idx1)
{
	return (dynvar_t *)(d->dds_base + (uint64_t)(idx1 - 1) * d->dds_chunk);
}

/* dynvar_find: the entry for (var, key); with create, make one (NULL: no space). */
static dynvar_t *dynvar_find(dtrace_state_t *s, uint32_t varid, const uint8_t *key,
                             uint32_t keylen, bool create, uint32_t **linkp)
{
	dtrace_dynvar_space_t *d = &s->dts_dyn;
	uint32_t h = trace_hash(TRACE_HASH_SEED ^ varid, key, keylen);
	uint32_t *link = &d->dds_bucket[h % d->dds_nbuckets];
	for (; *link != 0; link = &dv_at(d, *link)->dv_next) {
		dynvar_t *v = dv_at(d, *link);
		if (v->dv_hash == h && v->dv_varid == varid && v->dv_keylen == keylen &&
		    memcmp(v + 1, key, keylen) == 0) {
			if (linkp)
				*linkp = link;
			return v;
		}
	}
	if (!create)
		return NULL;
	if (d->dds_free == 0) {
		d->dds_drops++;
		return NULL;
	}
	uint32_t idx = d->dds_free;
	dynvar_t *v = dv_at(d, idx);
	d->dds_free = v->dv_next;
	v->dv_hash = h;
	v->dv_varid = varid;
	v->dv_keylen = keylen;
	v->dv_set = 0;
	memcpy(v + 1, key, keylen);
	v->dv_next = d->dds_bucket[h % d->dds_nbuckets];
	d->dds_bucket[h % d->dds_nbuckets] = idx;
	return v;
}

static void dynvar_delete(dtrace_state_t *s, dynvar_t *v, uint32_t *link)
{
	dtrace_dynvar_space_t *d = &s->dts_dyn;
	uint32_t idx = *link;

	*link = v->dv_next;
	v->dv_next = d->dds_free;
	d->dds_free = idx;
}

/* What slot_of() does with a dynamic variable it does not find, or finds. */
enum slot_op {
	SLOT_FIND,                        /* loads: the slot if it exists */
	SLOT_MAKE,                        /* stores: the slot, made if need be */
	SLOT_DELETE,                      /* storing 0: free the entry, no slot */
};

/* slot_of: the value slot ("set" word, then the value) of a reference, or NULL. */
static uint8_t *slot_of(dtrace_state_t *s, const dif_varref_t *ref, enum slot_op op)
{
	const dif_var_t *var = ref->vr_var;
	uint32_t idx = var->dv_id - DIF_VAR_USER_BASE;

	if (var->dv_scope == DIF_SCOPE_LOCAL && var->dv_kind == DIF_VKIND_SCALAR)
		return idx < TRACE_MAXLOCALS ? s->dts_locals[arch_cpu_id()] + idx * s->dts_slot : NULL;
	if (var->dv_scope == DIF_SCOPE_GLOBAL && var->dv_kind == DIF_VKIND_SCALAR)
		return idx < s->dts_nglobals ? s->dts_globals + idx * s->dts_slot : NULL;

	uint8_t key[8 + DIF_TUPLE_MAX * (8 + 264)];
	/* Never more than an entry holds: the program's own key counts size the
	 * entries, and a DIFO may use more keys than its program declares. */
	uint32_t keylen = key_serialize(s, ref, key, MIN((uint32_t)sizeof(key), s->dts_dyn.dds_keymax));
	uint32_t *link = NULL;
	if (keylen == 0 && (var->dv_scope == DIF_SCOPE_THREAD || ref->vr_nkeys > 0)) {
		s->dts_dyn.dds_drops++;                 /* key too long for the space */
		return NULL;
	}
	dynvar_t *v = dynvar_find(s, var->dv_id, key, keylen, op == SLOT_MAKE, &link);
	if (v != NULL && op == SLOT_DELETE) {
		dynvar_delete(s, v, link);
		return NULL;
	}
	return v ? (uint8_t *)(v + 1) + v->dv_keylen : NULL;
}

int dtrace_var_load(void *ctx, const dif_varref_t *ref, uint64_t *val)
{
	dtrace_state_t *s = ctx;
	uint8_t *slot = slot_of(s, ref, SLOT_FIND);
	bool byref = ref->vr_var->dv_type.dt_flags & DIF_TF_BYREF;

	if (slot == NULL || *(uint64_t *)slot == 0) {
		static const char unset[8];              /* an unset string reads as "" */
		*val = byref ? (uint64_t)unset : 0;
		return 0;
	}
	*val = byref ? (uint64_t)(slot + 8) : *(uint64_t *)(slot + 8);
	return 0;
}

int dtrace_var_store(void *ctx, const dif_varref_t *ref, uint64_t value, const void *data,
                     size_t size)
{
	dtrace_state_t *s = ctx;
	uint8_t *slot = slot_of(s, ref, value == 0 && data == NULL ? SLOT_DELETE : SLOT_MAKE);
	uint32_t max = slot_size(s);

	if (slot == NULL)
		return 0;                       /* deleted, or dropped and counted */
	if (data != NULL) {
		size_t n = MIN(size, (size_t)max - 1);  /* keep room for a NUL */
		memcpy(slot + 8, data, n);
		slot[8 + n] = 0;
	} else {
		*(uint64_t *)(slot + 8) = value;
	}
	*(uint64_t *)slot = 1;
	return 0;
}
