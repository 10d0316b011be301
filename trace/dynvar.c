/*
 * dynvar.c - D variables: globals, thread-locals, clause-locals and
 * associative arrays.
 *
 * Global scalars live in a table of fixed slots (one per variable id).
 * Clause-locals (this->) live in a per-CPU table of the same shape, zeroed
 * at each probe firing.  A slot is an 8-byte "set" word (so that an unset
 * string reads as "" and an unset integer as 0; SLOT_NULL: a string
 * assigned 0, which reads as the NULL string, as in DTrace) and then the
 * value: an integer, a string's bytes (up to strsize, NUL-terminated), or
 * a struct's or array's bytes (its size, a slot as big as the program's
 * biggest, at most TRACE_MAXVARSIZE).
 * A thread-local or array element that does not exist reads as 0, for a
 * string too (self->s == NULL is DTrace's test for "not set").
 *
 * Thread-locals (self->) and associative array elements are dynamic
 * variables, kept in the dynamic variable space the way DTrace keeps them:
 *
 *   entry   one fixed-size chunk of the dynvarsize space, carved at
 *           enabling time: a header, the serialized key (room for the
 *           longest key the program declares: dds_keymax bytes, strsize
 *           only for string keys) and the value slot (a set word and
 *           dds_valsize bytes: 8, or strsize if some dynamic variable
 *           holds a string, or a struct's size if some holds a bigger
 *           struct).  The key of a thread-local is the thread id;
 *           of an array element, each tuple member.  Every byte written
 *           is bounded by these sizes, whatever the program claims.
 *   hash    a table of bucket heads; each bucket a singly linked chain.
 *   free    one free list per CPU.  A CPU allocates from its own and, when
 *           that is empty, from the others' (probe context never
 *           allocates memory).  When none has an entry the store is
 *           dropped and counted: "dynamic variable drops", or "... with
 *           non-empty dirty list" / "... with non-empty rinsing list" when
 *           entries are deleted but not yet recycled (a bigger cleanrate
 *           would have helped, not a bigger dynvarsize).
 *   dirty   one list per CPU of the entries that CPU deleted (by storing
 *           0); they stay on their hash chains, marked dead, until the
 *           cleaner recycles them.
 *
 * An entry goes  free -> live -> dead (dirty) -> rinsing -> free.  The
 * cleaner (a cyclic at the cleanrate option, default 101 Hz, outside probe
 * context) takes each CPU's dirty list by cross-calling that CPU, unlinks
 * the dead entries from their chains (they are "rinsing"), waits with
 * dtrace_sync() until every CPU has been outside probe context, and only
 * then pushes them onto the free lists.
 *
 * Why this is safe on any number of CPUs, and wait-free in probe context:
 *
 *  - Bounded steps.  A probe-context operation serializes the key (bounded
 *    by dds_keymax), walks one chain (at most dds_nchunks entries: the walk
 *    counts, and a chain is acyclic because an entry joins a chain only
 *    fresh from a free list, at the head), and makes at most DYNVAR_TRIES
 *    compare-and-swap attempts on a bucket head and on each free list.  A
 *    CAS fails only because another CPU's operation succeeded; after
 *    DYNVAR_TRIES failures the operation gives up as a counted drop (never
 *    seen in practice: it needs 64 successful changes of one bucket during
 *    one walk).  Nothing in probe context waits for another CPU, takes a
 *    lock, or sends a cross-call.
 *  - Insertion.  A new entry is filled in while private, then published
 *    with one CAS of its bucket's head from the head the lookup walked
 *    from (release: a reader that sees the entry sees its key).  Only heads
 *    change by insertion, so if the CAS succeeds no entry was added to the
 *    chain since the walk: two CPUs making the same key cannot both
 *    succeed; the loser walks again and finds the winner's entry (its own
 *    unpublished entry goes to its dirty list as an orphan).
 *  - Deletion in probe context only marks: one CAS of the entry's state
 *    from live to dead (so exactly one CPU puts it on a dirty list), then a
 *    push on this CPU's dirty list, which only this CPU and the cross-call
 *    the cleaner sends to this CPU touch, both with interrupts off here, so
 *    plain stores do.  Lookups skip dead entries.
 *  - Unlinking is done only by the cleaner (one pass at a time): the
 *    predecessor's next (or, for the head, a CAS of the bucket, retried if
 *    an insertion raced it) is set to the dead entry's next.  The dead
 *    entry's own next is left alone, so a lookup standing on it goes on
 *    into the rest of the chain and misses no live entry.
 *  - No reuse while referenced.  A CPU holds pointers into the space only
 *    inside one probe firing, with interrupts off.  dtrace_sync() returns
 *    only when every CPU has answered a cross-call, which it does with
 *    interrupts on (outside probe context), so every firing that could
 *    have reached an entry before it was unlinked has ended before the
 *    entry is freed.  The same makes free-list pops free of ABA: an entry
 *    seen at a free list's head cannot come back there while the popping
 *    firing lasts.
 *  - Values are not atomic across CPUs (nor in DTrace): two CPUs storing
 *    one array element at once leave either value, and a store racing a
 *    delete of the same element may be lost.  Thread-locals are touched
 *    only by their thread, one CPU at a time.
 *
 * Tests: self-tests dynvar_* (tests/kernel/dynvar_selftest.c), trace_dynvar_*,
 *        stress_dynvar_churn; tests/d/variables, tests/d/types/tst.big_struct_value.d; tests/e2e/test_dynvar_smp.py
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "kernel/xcall.h"
#include "trace/trace_impl.h"

#define DYNVAR_TRIES 64                   /* CAS attempts before a probe-context drop */

enum dynvar_state {
	DV_FREE = 0,                      /* on a free list */
	DV_LIVE,                          /* on a chain, found by lookups */
	DV_DEAD,                          /* on a chain and a dirty list, skipped */
	DV_ORPHAN,                        /* never published (lost a race): dirty list only */
};

typedef struct dynvar {
	uint32_t dv_next;                 /* hash chain: index+1 of the next entry, 0 = end */
	uint32_t dv_lnext;                /* free or dirty list: index+1 of the next */
	uint32_t dv_hash;
	uint32_t dv_varid;
	uint32_t dv_keylen;
	uint32_t dv_state;                /* enum dynvar_state */
	/* key bytes (dds_keymax), then the value slot (dts_slot bytes) */
} dynvar_t;

#define LOAD(p)        __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v)    __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define CAS(p, old, v) __atomic_compare_exchange_n((p), (old), (v), false, __ATOMIC_ACQ_REL, \
                                                   __ATOMIC_ACQUIRE)

static uint32_t slot_size(const dtrace_state_t *s)
{
	return (uint32_t)MAX(8, ALIGN_UP(s->dts_opts.dov_strsize, 8));
}

/*
 * var_value_size: the bytes a value of variable v takes in its slot: 8
 * for an integer, strsize for a string, a struct's or array's own size
 * (bigger than strsize for a struct holding a string member), at most
 * TRACE_MAXVARSIZE.
 */
static uint32_t var_value_size(const dtrace_state_t *s, const dif_var_t *v)
{
	if (!(v->dv_type.dt_flags & DIF_TF_BYREF))
		return 8;
	if (v->dv_type.dt_kind == DIF_TYPE_STRING)
		return slot_size(s);
	return (uint32_t)MAX(slot_size(s), ALIGN_UP(MIN(v->dv_type.dt_size,
	                     (uint32_t)TRACE_MAXVARSIZE), 8));
}

/* difo_static_size: the largest value a DIFO stores in a global or clause-local. */
static uint32_t difo_static_size(const dtrace_state_t *s, const dif_difo_t *dp)
{
	uint32_t n = slot_size(s);

	for (uint32_t i = 0; dp != NULL && i < dp->dd_nvars; i++)
		if (dp->dd_vartab[i].dv_kind == DIF_VKIND_SCALAR &&
		    dp->dd_vartab[i].dv_scope != DIF_SCOPE_THREAD)
			n = MAX(n, var_value_size(s, &dp->dd_vartab[i]));
	return n;
}

/*
 * key_size_max: the longest serialized key the program declares: the thread
 * id, then per tuple member a header word and its bytes (8 for an integer,
 * up to strsize for a string).  A DIFO that makes a longer key (more keys,
 * or a string where an integer was declared) has its stores dropped.
 */
static uint32_t key_size_max(const dtrace_state_t *s)
{
	uint32_t max = 8;

	for (uint32_t i = 0; i < s->dts_prog->dp_nvars; i++) {
		const dt_vardesc *v = &s->dts_prog->dp_vars[i];
		uint32_t nkeys = MIN(v->vd_nkeys, (uint32_t)DIF_TUPLE_MAX);
		uint32_t nstr = MIN(v->vd_nstrkeys, nkeys);
		max = MAX(max, 8 + (nkeys - nstr) * 16 + nstr * (8 + slot_size(s)));
	}
	return max;
}

/* difo_value_size: the largest dynamic variable value a DIFO stores (by its variable table). */
static uint32_t difo_value_size(const dtrace_state_t *s, const dif_difo_t *dp)
{
	uint32_t n = 8;

	for (uint32_t i = 0; dp != NULL && i < dp->dd_nvars; i++) {
		const dif_var_t *v = &dp->dd_vartab[i];
		if ((v->dv_scope == DIF_SCOPE_THREAD || v->dv_kind == DIF_VKIND_ARRAY) &&
		    (v->dv_type.dt_flags & DIF_TF_BYREF))
			n = MAX(n, var_value_size(s, v));
	}
	return n;
}

/* A measure of one DIFO (NULL for an absent predicate), and its maximum over a program. */
typedef uint32_t difo_measure_fn(const dtrace_state_t *s, const dif_difo_t *dp);

static uint32_t prog_difo_max(const dtrace_state_t *s, difo_measure_fn *measure)
{
	const dt_prog *p = s->dts_prog;
	uint32_t n = 0;

	for (uint32_t c = 0; c < p->dp_nclauses; c++) {
		const dt_clause *cl = &p->dp_clauses[c];
		n = MAX(n, measure(s, cl->cl_pred));
		for (uint32_t a = 0; a < cl->cl_nacts; a++)
			for (uint32_t k = 0; k < cl->cl_acts[a].ac_nargs; k++)
				n = MAX(n, measure(s, cl->cl_acts[a].ac_args[k]));
	}
	return n;
}

/* value_size_max: bytes of a dynamic variable's value: 8, strsize if any holds a string, or more for a struct. */
static uint32_t value_size_max(const dtrace_state_t *s)
{
	return MAX(8, prog_difo_max(s, difo_value_size));
}

static bool prog_has_dynvars(const dt_prog *p)
{
	for (uint32_t i = 0; i < p->dp_nvars; i++)
		if (p->dp_vars[i].vd_scope == DIF_SCOPE_THREAD || p->dp_vars[i].vd_kind == DIF_VKIND_ARRAY)
			return true;
	return false;
}

/* difo_locals: how many clause-local slots a DIFO names. */
static uint32_t difo_locals(const dtrace_state_t *s, const dif_difo_t *dp)
{
	uint32_t n = 0;

	(void)s;
	for (uint32_t i = 0; dp != NULL && i < dp->dd_nvars; i++)
		if (dp->dd_vartab[i].dv_scope == DIF_SCOPE_LOCAL)
			n = MAX(n, dp->dd_vartab[i].dv_id - DIF_VAR_USER_BASE + 1);
	return n;
}

/* locals_used: how many clause-local slots the program's DIFOs name (firings zero only these). */
static uint32_t locals_used(const dtrace_state_t *s)
{
	return MIN(prog_difo_max(s, difo_locals), (uint32_t)TRACE_MAXLOCALS);
}

static inline dynvar_t *dv_at(const dtrace_dynvar_space_t *d, uint32_t idx1)
{
	return (dynvar_t *)(d->dds_base + (uint64_t)(idx1 - 1) * d->dds_chunk);
}

static inline uint8_t *dv_slot(const dtrace_dynvar_space_t *d, dynvar_t *v)
{
	return (uint8_t *)(v + 1) + d->dds_keymax;
}

/* space_carve: cut the space into entries, a contiguous share on each CPU's free list. */
static void space_carve(dtrace_dynvar_space_t *d)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		uint32_t lo = (uint32_t)((uint64_t)d->dds_nchunks * cpu / ncpus);
		uint32_t hi = (uint32_t)((uint64_t)d->dds_nchunks * (cpu + 1) / ncpus);
		for (uint32_t i = lo; i < hi; i++) {
			dynvar_t *v = dv_at(d, i + 1);
			v->dv_state = DV_FREE;
			v->dv_lnext = i + 1 < hi ? i + 2 : 0;
		}
		d->dds_cpu[cpu].ddc_free = lo < hi ? lo + 1 : 0;
	}
}

static void dynvar_cleaner(void *arg);

static int space_alloc(dtrace_state_t *s)
{
	dtrace_dynvar_space_t *d = &s->dts_dyn;

	d->dds_keymax = key_size_max(s);
	d->dds_valsize = value_size_max(s);
	d->dds_chunk = (uint32_t)ALIGN_UP(sizeof(dynvar_t) + d->dds_keymax + 8 + d->dds_valsize, 8);
	d->dds_size = MAX(s->dts_opts.dov_dynvarsize, d->dds_chunk);   /* one variable at least, as DTrace */
	d->dds_nchunks = (uint32_t)MIN(d->dds_size / d->dds_chunk, 1u << 24);
	d->dds_nbuckets = MAX(d->dds_nchunks, 1);
	d->dds_base = kmalloc(MAX((uint64_t)d->dds_nchunks * d->dds_chunk, 8));
	d->dds_bucket = kzalloc(d->dds_nbuckets * sizeof(uint32_t));
	if (d->dds_base == NULL || d->dds_bucket == NULL)
		return DTRACE_ENOMEM;
	for (int cpu = 0; cpu < ncpus; cpu++)
		if ((d->dds_cpu[cpu].ddc_key = kmalloc(d->dds_keymax)) == NULL)
			return DTRACE_ENOMEM;
	space_carve(d);
	if (d->dds_nchunks > 0 && prog_has_dynvars(s->dts_prog)) {
		uint64_t period = MIN(MAX(s->dts_opts.dov_cleanrate_ns, DTRACE_CLEANRATE_MIN_NS),
		                      DTRACE_CLEANRATE_MAX_NS);
		cyclic_start(&d->dds_cleaner, period, 0, dynvar_cleaner, s);
	}
	return 0;
}

int dtrace_dynvar_init(dtrace_state_t *s)
{
	uint32_t maxid = 0;

	for (uint32_t i = 0; i < s->dts_prog->dp_nvars; i++)
		if (s->dts_prog->dp_vars[i].vd_scope == DIF_SCOPE_GLOBAL)
			maxid = MAX(maxid, s->dts_prog->dp_vars[i].vd_id - DIF_VAR_USER_BASE + 1);
	s->dts_slot = 8 + MAX(slot_size(s), prog_difo_max(s, difo_static_size));
	s->dts_nglobals = maxid;
	s->dts_globals = kzalloc((size_t)MAX(maxid, 1) * s->dts_slot);
	if (s->dts_globals == NULL)
		return DTRACE_ENOMEM;
	s->dts_nlocals = locals_used(s);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		s->dts_locals[cpu] = kzalloc(TRACE_MAXLOCALS * s->dts_slot);
		if (s->dts_locals[cpu] == NULL)
			return DTRACE_ENOMEM;
	}
	return space_alloc(s);
}

void dtrace_dynvar_fini(dtrace_state_t *s)
{
	dtrace_dynvar_space_t *d = &s->dts_dyn;

	cyclic_stop(&d->dds_cleaner);
	dtrace_sync();                          /* no firing still inside the space */
	kfree(s->dts_globals);
	kfree(d->dds_base);
	kfree(d->dds_bucket);
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		kfree(d->dds_cpu[cpu].ddc_key);
		kfree(s->dts_locals[cpu]);
	}
}

/* ---- probe context ---- */

/*
 * key_serialize: (thread?, tuple) into buf; returns the length (whole words),
 * 0 if longer than max.  Each member is a header word (by reference?, length)
 * and its bytes, zero-padded to a word.
 */
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
		/* By reference (strings): the first strsize bytes, NUL included if shorter. */
		uint32_t len = k->dk_size ? (uint32_t)MIN(k->dk_size, s->dts_opts.dov_strsize) : 8;
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

/* key_equal: serialized keys are whole words. */
static inline bool key_equal(const uint8_t *a, const uint8_t *b, uint32_t len)
{
	const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;

	for (uint32_t i = 0; i < len / 8; i++)
		if (x[i] != y[i])
			return false;
	return true;
}

/* dynvar_drop: no entry to be had: count it the way DTrace tells them apart. */
static void dynvar_drop(dtrace_dynvar_space_t *d, int cpu)
{
	bool dirty = false;

	for (int c = 0; c < ncpus; c++)
		dirty |= __atomic_load_n(&d->dds_cpu[c].ddc_dirty, __ATOMIC_RELAXED) != 0;
	if (dirty)
		d->dds_cpu[cpu].ddc_dirtydrops++;
	else if (__atomic_load_n(&d->dds_rinsing, __ATOMIC_RELAXED) != 0)
		d->dds_cpu[cpu].ddc_rinsedrops++;
	else
		d->dds_cpu[cpu].ddc_drops++;
}

/* dirty_push: onto this CPU's dirty list (only this CPU and the cleaner's cross-call to it). */
static void dirty_push(dtrace_dynvar_space_t *d, int cpu, uint32_t idx)
{
	dtrace_dynvar_cpu_t *c = &d->dds_cpu[cpu];

	dv_at(d, idx)->dv_lnext = c->ddc_dirty;
	__atomic_store_n(&c->ddc_dirty, idx, __ATOMIC_RELAXED);
}

/* freelist_pop: an entry from one CPU's free list, or 0 (empty, or too contended). */
static uint32_t freelist_pop(dtrace_dynvar_space_t *d, uint32_t *list)
{
	for (int t = 0; t < DYNVAR_TRIES; t++) {
		uint32_t head = LOAD(list);
		if (head == 0)
			return 0;
		uint32_t next = __atomic_load_n(&dv_at(d, head)->dv_lnext, __ATOMIC_RELAXED);
		if (CAS(list, &head, next))
			return head;
	}
	return 0;
}

/* entry_make: a private entry for (varid, key), value unset, or 0 (dropped and counted). */
static uint32_t entry_make(dtrace_dynvar_space_t *d, int cpu, uint32_t h, uint32_t varid,
                           const uint8_t *key, uint32_t keylen)
{
	uint32_t idx = 0;

	for (int i = 0; i < ncpus && idx == 0; i++)
		idx = freelist_pop(d, &d->dds_cpu[(cpu + i) % ncpus].ddc_free);
	if (idx == 0) {
		dynvar_drop(d, cpu);
		return 0;
	}
	dynvar_t *v = dv_at(d, idx);
	v->dv_hash = h;
	v->dv_varid = varid;
	v->dv_keylen = keylen;
	v->dv_state = DV_LIVE;
	memcpy(v + 1, key, keylen);
	*(uint64_t *)dv_slot(d, v) = 0;
	return idx;
}

/* chain_find: the live entry for the key on the chain from head: its index, 0 if none. */
static uint32_t chain_find(const dtrace_dynvar_space_t *d, uint32_t head, uint32_t h,
                           uint32_t varid, const uint8_t *key, uint32_t keylen, bool *overrun)
{
	uint32_t steps = 0;

	for (uint32_t i = head; i != 0; i = LOAD(&dv_at(d, i)->dv_next)) {
		if (i > d->dds_nchunks || ++steps > d->dds_nchunks) {
			*overrun = true;        /* cannot happen (see the theory): never loop */
			return 0;
		}
		dynvar_t *v = dv_at(d, i);
		if (v->dv_hash == h && v->dv_varid == varid && v->dv_keylen == keylen &&
		    LOAD(&v->dv_state) == DV_LIVE && key_equal((const uint8_t *)(v + 1), key, keylen))
			return i;
	}
	return 0;
}

/* dynvar_find: the entry for (var, key); with create, made if need be.  0: none, or dropped. */
static uint32_t dynvar_find(dtrace_dynvar_space_t *d, int cpu, uint32_t varid, const uint8_t *key,
                            uint32_t keylen, bool create)
{
	uint32_t h = trace_hash(TRACE_HASH_SEED ^ varid, key, keylen);
	uint32_t *bucket = &d->dds_bucket[h % d->dds_nbuckets];
	uint32_t fresh = 0, idx = 0;
	bool overrun = false;

	for (int t = 0; t < DYNVAR_TRIES; t++) {
		uint32_t head = LOAD(bucket);
		idx = chain_find(d, head, h, varid, key, keylen, &overrun);
		if (idx != 0 || !create || overrun)
			break;
		if (fresh == 0 && (fresh = entry_make(d, cpu, h, varid, key, keylen)) == 0)
			return 0;
		dv_at(d, fresh)->dv_next = head;
		if (CAS(bucket, &head, fresh))
			return fresh;
	}
	if (fresh != 0) {                       /* another CPU made it first, or we gave up */
		dv_at(d, fresh)->dv_state = DV_ORPHAN;
		dirty_push(d, cpu, fresh);
	}
	if (idx == 0 && create)
		d->dds_cpu[cpu].ddc_drops++;   /* too contended (or a broken chain) */
	return idx;
}

/* dynvar_delete: mark it dead; the CPU that wins the mark puts it on its dirty list. */
static void dynvar_delete(dtrace_dynvar_space_t *d, int cpu, uint32_t idx)
{
	uint32_t live = DV_LIVE;

	if (CAS(&dv_at(d, idx)->dv_state, &live, DV_DEAD))
		dirty_push(d, cpu, idx);
}

/* A value slot's "set" word: 0 never stored, SLOT_SET a value, SLOT_NULL a by-ref 0. */
#define SLOT_SET  1u
#define SLOT_NULL 2u

/* What slot_of() does with a dynamic variable it does not find, or finds. */
enum slot_op {
	SLOT_FIND,                        /* loads: the slot if it exists */
	SLOT_MAKE,                        /* stores: the slot, made if need be */
	SLOT_DELETE,                      /* storing 0: delete the entry, no slot */
};

/* dynvar_slot: the value slot of a thread-local or array element, or NULL. */
static uint8_t *dynvar_slot(dtrace_state_t *s, const dif_varref_t *ref, enum slot_op op,
                            uint32_t *cap)
{
	dtrace_dynvar_space_t *d = &s->dts_dyn;
	int cpu = arch_cpu_id();
	uint8_t *key = d->dds_cpu[cpu].ddc_key;
	/* Never more than an entry holds: the program's own key counts size the
	 * entries, and a DIFO may use more keys than its program declares. */
	uint32_t keylen = key_serialize(s, ref, key, d->dds_keymax);

	if (keylen == 0 || d->dds_nchunks == 0) {
		if (op == SLOT_MAKE)
			d->dds_cpu[cpu].ddc_drops++;   /* key too long for the space, or no space */
		return NULL;
	}
	uint32_t idx = dynvar_find(d, cpu, ref->vr_var->dv_id, key, keylen, op == SLOT_MAKE);
	if (idx == 0)
		return NULL;
	if (op == SLOT_DELETE) {
		dynvar_delete(d, cpu, idx);
		return NULL;
	}
	*cap = d->dds_valsize;
	return dv_slot(d, dv_at(d, idx));
}

/* slot_of: the value slot ("set" word, then *cap value bytes) of a reference, or NULL. */
static uint8_t *slot_of(dtrace_state_t *s, const dif_varref_t *ref, enum slot_op op, uint32_t *cap)
{
	const dif_var_t *var = ref->vr_var;
	uint32_t idx = var->dv_id - DIF_VAR_USER_BASE;

	*cap = s->dts_slot - 8;
	if (var->dv_scope == DIF_SCOPE_LOCAL && var->dv_kind == DIF_VKIND_SCALAR)
		return idx < TRACE_MAXLOCALS ? s->dts_locals[arch_cpu_id()] + idx * s->dts_slot : NULL;
	if (var->dv_scope == DIF_SCOPE_GLOBAL && var->dv_kind == DIF_VKIND_SCALAR)
		return idx < s->dts_nglobals ? s->dts_globals + idx * s->dts_slot : NULL;
	return dynvar_slot(s, ref, op, cap);
}

int dtrace_var_load(void *ctx, const dif_varref_t *ref, uint64_t *val)
{
	dtrace_state_t *s = ctx;
	uint32_t cap;
	uint8_t *slot = slot_of(s, ref, SLOT_FIND, &cap);
	bool byref = ref->vr_var->dv_type.dt_flags & DIF_TF_BYREF;

	if (slot == NULL || *(uint64_t *)slot != SLOT_SET) {
		static const char unset[8];
		/*
		 * As in DTrace: a global or clause-local string never assigned
		 * reads as "" (its zeroed storage); one assigned 0 (SLOT_NULL),
		 * and a thread-local or array element that does not exist, read
		 * as 0, the NULL string (s == NULL is true; printing it faults).
		 * An unset struct or array is 0 (dif.h): the code reads zeroes.
		 */
		bool stat = ref->vr_var->dv_kind == DIF_VKIND_SCALAR &&
		            ref->vr_var->dv_scope != DIF_SCOPE_THREAD;
		*val = byref && ref->vr_var->dv_type.dt_kind == DIF_TYPE_STRING && stat &&
		       (slot == NULL || *(uint64_t *)slot == 0) ? (uint64_t)unset : 0;
		return 0;
	}
	*val = byref ? (uint64_t)(slot + 8) : *(uint64_t *)(slot + 8);
	return 0;
}

int dtrace_var_store(void *ctx, const dif_varref_t *ref, uint64_t value, const void *data,
                     size_t size)
{
	dtrace_state_t *s = ctx;
	uint32_t max;
	uint8_t *slot = slot_of(s, ref, value == 0 && data == NULL ? SLOT_DELETE : SLOT_MAKE, &max);

	if (slot == NULL)
		return 0;                       /* deleted, or dropped and counted */
	if (data == NULL && value == 0 && (ref->vr_var->dv_type.dt_flags & DIF_TF_BYREF)) {
		*(uint64_t *)slot = SLOT_NULL;  /* a static string (or struct) set to 0 */
		return 0;
	}
	if (data != NULL && ref->vr_var->dv_type.dt_kind != DIF_TYPE_STRING) {
		/* a struct's or array's bytes, never more than the slot holds */
		memcpy(slot + 8, data, MIN(size, (size_t)max));
	} else if (data != NULL) {
		/* At most strsize - 1 bytes and a NUL, and never more than the slot holds. */
		size_t n = MIN(size, (size_t)MIN(max, s->dts_opts.dov_strsize) - 1);
		memcpy(slot + 8, data, n);
		slot[8 + n] = 0;
	} else {
		*(uint64_t *)(slot + 8) = value;
	}
	*(uint64_t *)slot = SLOT_SET;
	return 0;
}

/* ---- the cleaner (outside probe context) ---- */

struct dynvar_pass {
	dtrace_dynvar_space_t *dp_space;
	uint32_t dp_taken[MAX_CPUS]; /* each CPU's dirty list, as its cross-call found it */
};

/* dirty_take: by cross-call on each CPU: hand its dirty list to the pass. */
static void dirty_take(void *arg)
{
	struct dynvar_pass *p = arg;
	int cpu = arch_cpu_id();
	dtrace_dynvar_cpu_t *c = &p->dp_space->dds_cpu[cpu];

	p->dp_taken[cpu] = c->ddc_dirty;
	__atomic_store_n(&c->ddc_dirty, 0, __ATOMIC_RELAXED);
}

/* chain_unlink: take dead entry idx off its chain; its own next stays for readers on it. */
static void chain_unlink(dtrace_dynvar_space_t *d, uint32_t idx)
{
	dynvar_t *v = dv_at(d, idx);
	uint32_t *bucket = &d->dds_bucket[v->dv_hash % d->dds_nbuckets];
	uint32_t next = v->dv_next;

	for (;;) {
		uint32_t head = LOAD(bucket);
		if (head == idx) {
			if (CAS(bucket, &head, next))
				return;
			continue;               /* an insertion came first: idx is inside now */
		}
		for (uint32_t i = head; i != 0; i = dv_at(d, i)->dv_next) {
			if (dv_at(d, i)->dv_next == idx) {
				STORE(&dv_at(d, i)->dv_next, next);
				return;
			}
		}
		return;                         /* not on its chain: cannot happen */
	}
}

static bool dirty_any(dtrace_dynvar_space_t *d)
{
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (__atomic_load_n(&d->dds_cpu[cpu].ddc_dirty, __ATOMIC_RELAXED) != 0)
			return true;
	return false;
}

/* pass_unlink: dirty -> rinsing: off the chains; returns how many entries were taken. */
static uint32_t pass_unlink(struct dynvar_pass *p)
{
	dtrace_dynvar_space_t *d = p->dp_space;
	uint32_t n = 0;

	for (int cpu = 0; cpu < ncpus; cpu++) {
		for (uint32_t i = p->dp_taken[cpu]; i != 0; i = dv_at(d, i)->dv_lnext, n++)
			if (dv_at(d, i)->dv_state == DV_DEAD)
				chain_unlink(d, i);
	}
	return n;
}

/* pass_free: rinsing -> free, each list onto the free list of the CPU that deleted it. */
static void pass_free(struct dynvar_pass *p)
{
	dtrace_dynvar_space_t *d = p->dp_space;

	for (int cpu = 0; cpu < ncpus; cpu++) {
		uint32_t first = p->dp_taken[cpu], last = 0;
		if (first == 0)
			continue;
		for (uint32_t i = first; i != 0; i = dv_at(d, i)->dv_lnext) {
			dv_at(d, i)->dv_state = DV_FREE;
			last = i;
		}
		uint32_t *list = &d->dds_cpu[cpu].ddc_free;
		uint32_t head = LOAD(list);
		do
			dv_at(d, last)->dv_lnext = head;
		while (!CAS(list, &head, first));
	}
}

/* dynvar_clean_pass: one cleaning; false if another pass is running (it does the work). */
static bool dynvar_clean_pass(dtrace_dynvar_space_t *d)
{
	if (__atomic_exchange_n(&d->dds_cleaning, 1, __ATOMIC_ACQUIRE) != 0)
		return false;
	if (dirty_any(d)) {
		struct dynvar_pass p = { .dp_space = d };
		xcall_all(dirty_take, &p);
		uint32_t n = pass_unlink(&p);
		__atomic_store_n(&d->dds_rinsing, n, __ATOMIC_RELEASE);
		dtrace_sync();                  /* no firing still holds a rinsing entry */
		pass_free(&p);
		__atomic_store_n(&d->dds_rinsing, 0, __ATOMIC_RELEASE);
		d->dds_cleaned += n;
	}
	__atomic_store_n(&d->dds_cleaning, 0, __ATOMIC_RELEASE);
	return true;
}

/* The cleaner cyclic: timer interrupt of the enabling CPU, interrupts off, not probe context. */
static void dynvar_cleaner(void *arg)
{
	dtrace_state_t *s = arg;

	dynvar_clean_pass(&s->dts_dyn);
}

/* ---- consumer side ---- */

void dtrace_dynvar_clean(dtrace_state_t *s)
{
	if (s->dts_dyn.dds_base == NULL)
		return;
	for (;;) {
		uint64_t flags = arch_irq_save();
		bool done = dynvar_clean_pass(&s->dts_dyn);
		arch_irq_restore(flags);
		if (done)
			return;
		thread_yield();
	}
}

void dtrace_dynvar_drops(const dtrace_state_t *s, uint64_t *drops, uint64_t *dirty,
                         uint64_t *rinsing)
{
	*drops = *dirty = *rinsing = 0;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		const dtrace_dynvar_cpu_t *c = &s->dts_dyn.dds_cpu[cpu];
		*drops += c->ddc_drops;
		*dirty += c->ddc_dirtydrops;
		*rinsing += c->ddc_rinsedrops;
	}
}

void dtrace_dynvar_census(const dtrace_state_t *s, dtrace_dynvar_census_t *out)
{
	const dtrace_dynvar_space_t *d = &s->dts_dyn;

	memset(out, 0, sizeof(*out));
	out->ddn_total = d->dds_nchunks;
	for (uint32_t i = 1; d->dds_base != NULL && i <= d->dds_nchunks; i++) {
		switch (LOAD(&dv_at(d, i)->dv_state)) {
		case DV_FREE: out->ddn_free++; break;
		case DV_LIVE: out->ddn_live++; break;
		default: out->ddn_dirty++; break;
		}
	}
	for (int cpu = 0; cpu < ncpus; cpu++)
		for (uint32_t i = LOAD(&d->dds_cpu[cpu].ddc_free); i != 0; i = dv_at(d, i)->dv_lnext)
			if (++out->ddn_onfree > d->dds_nchunks)
				break;
}
