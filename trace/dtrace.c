/*
 * dtrace.c - providers and probes: registration, naming, matching, listing.
 *
 * Probes live in a table indexed by id (from 1) that only grows, so probe
 * context can read dtrace_probes[id] without a lock.  A hash on
 * (provider, module, function, name) finds a probe by exact name (providers
 * ask before creating one).  Matching a description runs the providers'
 * provide op first, so that probes made on demand (profile-997) exist, then
 * compares each probe's four fields with the description's globs.
 *
 * The rest of the framework is split by concern: enable.c (consumer states
 * and ECBs), probe.c (what happens when a probe fires), buffer.c, agg.c,
 * dynvar.c, prov_dtrace.c.  Everything in trace/ may run in probe context
 * or call what does, so the linker script keeps it all away from fbt.
 *
 * Tests: self-tests trace_glob, fbt_listing_counts; tests/d/probes;
 *        tests/e2e/test_dtrace_listing.py
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "trace/trace_impl.h"

#define PROBE_HASH_SIZE 4096

mutex_t dtrace_lock = MUTEX_INIT("dtrace");
dtrace_probe_t **dtrace_probes;          /* [id - 1] */
uint32_t dtrace_nprobes;
static uint32_t probes_cap;
static dtrace_probe_t *probe_hash[PROBE_HASH_SIZE];
static dtrace_provider_t *providers, *providers_tail;

static uint32_t name_hash(const char *prov, const char *mod, const char *func, const char *name)
{
	const char *parts[4] = { prov, mod, func, name };
	uint32_t h = TRACE_HASH_SEED;

	for (int i = 0; i < 4; i++)
		h = trace_hash(h, (const uint8_t *)parts[i], (uint32_t)strlen(parts[i]) + 1);
	return h % PROBE_HASH_SIZE;
}

/* A provider that never states its stability: Private/Private/Unknown throughout (provider.h). */
static const dtrace_pattr_t default_attr = {
	.dtpa_provider = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_args = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
};

dtrace_provider_t *dtrace_register(const char *name, const dtrace_pops_t *ops, void *arg)
{
	dtrace_provider_t *p;

	for (p = providers; p != NULL; p = p->dtpv_next)
		if (strcmp(p->dtpv_name, name) == 0)
			return NULL;
	p = kzalloc(sizeof(*p));
	if (p == NULL)
		return NULL;
	kstrlcpy(p->dtpv_name, name, sizeof(p->dtpv_name));
	p->dtpv_ops = ops;
	p->dtpv_arg = arg;
	dtrace_provider_attr_set(p, &default_attr);
	if (providers_tail != NULL)
		providers_tail->dtpv_next = p;
	else
		providers = p;
	providers_tail = p;
	return p;
}

dtrace_provider_t *dtrace_provider_find(const char *name)
{
	for (dtrace_provider_t *p = providers; p != NULL; p = p->dtpv_next)
		if (strcmp(p->dtpv_name, name) == 0)
			return p;
	return NULL;
}

static dtrace_probe_t *probe_find(dtrace_provider_t *prov, const char *mod, const char *func,
                                  const char *name)
{
	dtrace_probe_t *p = probe_hash[name_hash(prov->dtpv_name, mod, func, name)];

	for (; p != NULL; p = p->dtpr_hnext)
		if (p->dtpr_provider == prov && strcmp(p->dtpr_mod, mod) == 0 &&
		    strcmp(p->dtpr_func, func) == 0 && strcmp(p->dtpr_name, name) == 0)
			return p;
	return NULL;
}

dtrace_id_t dtrace_probe_lookup(dtrace_provider_t *prov, const char *mod, const char *func,
                                const char *name)
{
	dtrace_probe_t *p = probe_find(prov, mod, func, name);

	return p ? p->dtpr_id : 0;
}

static bool probes_grow(void)
{
	uint32_t cap = probes_cap ? probes_cap * 2 : 1024;
	dtrace_probe_t **t = kzalloc(cap * sizeof(*t));

	if (t == NULL)
		return false;
	if (dtrace_probes != NULL)
		memcpy(t, dtrace_probes, dtrace_nprobes * sizeof(*t));
	/*
	 * The old table is never freed: probe context on another CPU may be
	 * reading it right now (a freed large block is unmapped).  Doubling
	 * keeps what is kept smaller than the table in use.
	 */
	__atomic_store_n(&dtrace_probes, t, __ATOMIC_RELEASE);
	probes_cap = cap;
	return true;
}

dtrace_id_t dtrace_probe_create(dtrace_provider_t *prov, const char *mod, const char *func,
                                const char *name, int aframes, void *parg)
{
	if (probe_find(prov, mod, func, name) != NULL)
		return 0;
	if (dtrace_nprobes == probes_cap && !probes_grow())
		return 0;
	dtrace_probe_t *p = kzalloc(sizeof(*p));
	if (p == NULL)
		return 0;
	p->dtpr_mod = kstrdup(mod);
	p->dtpr_func = kstrdup(func);
	p->dtpr_name = kstrdup(name);
	if (!p->dtpr_mod || !p->dtpr_func || !p->dtpr_name) {
		kfree((void *)p->dtpr_mod);
		kfree((void *)p->dtpr_func);
		kfree((void *)p->dtpr_name);
		kfree(p);
		return 0;
	}
	p->dtpr_provider = prov;
	p->dtpr_aframes = aframes;
	p->dtpr_arg = parg;
	uint32_t h = name_hash(prov->dtpv_name, mod, func, name);
	p->dtpr_hnext = probe_hash[h];
	probe_hash[h] = p;
	p->dtpr_id = dtrace_nprobes + 1;
	dtrace_probes[dtrace_nprobes] = p;
	__atomic_store_n(&dtrace_nprobes, p->dtpr_id, __ATOMIC_RELEASE);   /* slot first, then count */
	return p->dtpr_id;
}

void dtrace_probe_retire(dtrace_id_t id)
{
	dtrace_probe_t *p = dtrace_probe_get(id);

	if (p == NULL || p->dtpr_retired)
		return;
	uint32_t h = name_hash(p->dtpr_provider->dtpv_name, p->dtpr_mod, p->dtpr_func, p->dtpr_name);
	for (dtrace_probe_t **pp = &probe_hash[h]; *pp != NULL; pp = &(*pp)->dtpr_hnext) {
		if (*pp == p) {
			*pp = p->dtpr_hnext;
			break;
		}
	}
	p->dtpr_retired = true;
}

dtrace_probedesc_t dtrace_desc_of(const dt_probedesc *pd)
{
	dtrace_probedesc_t d = { .dpd_id = 0 };

	kstrlcpy(d.dpd_provider, pd->pd_prov, sizeof(d.dpd_provider));
	kstrlcpy(d.dpd_mod, pd->pd_mod, sizeof(d.dpd_mod));
	kstrlcpy(d.dpd_func, pd->pd_func, sizeof(d.dpd_func));
	kstrlcpy(d.dpd_name, pd->pd_name, sizeof(d.dpd_name));
	return d;
}

void *dtrace_probe_arg(dtrace_id_t id)
{
	dtrace_probe_t *p = dtrace_probe_get(id);

	return p ? p->dtpr_arg : NULL;
}

/* ---- glob matching (pure) ---- */

/* class_match: does c match the bracket expression at *pp ("[...]")?  Advances *pp past it. */
static bool class_match(const char **pp, char c, bool *ok)
{
	const char *p = *pp + 1;
	bool neg = false, hit = false;

	if (*p == '!' || *p == '^') {
		neg = true;
		p++;
	}
	for (bool first = true; *p && (first || *p != ']'); first = false) {
		char lo = *p++, hi = lo;
		if (*p == '-' && p[1] && p[1] != ']') {
			hi = p[1];
			p += 2;
		}
		if (c >= lo && c <= hi)
			hit = true;
	}
	*ok = *p == ']';
	*pp = *ok ? p + 1 : p;
	return hit != neg;
}

/* elem_match: does the pattern element at p match c?  *next: the element after it. */
static bool elem_match(const char *p, char c, const char **next)
{
	bool ok;
	const char *q = p;

	if (*p == '?') {
		*next = p + 1;
		return true;
	}
	if (*p == '[') {
		bool hit = class_match(&q, c, &ok);
		*next = ok ? q : p + 1;             /* an unterminated [ is literal */
		return ok ? hit : c == '[';
	}
	if (*p == '\\' && p[1]) {
		*next = p + 2;
		return c == p[1];
	}
	*next = p + 1;
	return c == *p;
}

bool dtrace_glob_match(const char *p, const char *s)
{
	const char *star_p = NULL, *star_s = NULL, *next;

	if (*p == 0)
		return true;                        /* an empty field matches anything */
	while (*s) {
		if (*p == '*') {
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (*p && elem_match(p, *s, &next)) {
			p = next;
			s++;
			continue;
		}
		if (star_p == NULL)
			return false;
		p = star_p;
		s = ++star_s;
	}
	while (*p == '*')
		p++;
	return *p == 0;
}

/* An exact field: a pattern with no glob characters must equal the name. */
static bool field_match(const char *pat, const char *name)
{
	return pat[0] == 0 || dtrace_glob_match(pat, name);
}

bool dtrace_probe_matches(const dtrace_probe_t *p, const dtrace_probedesc_t *d)
{
	if (p->dtpr_retired)
		return false;
	if (d->dpd_id != 0)
		return p->dtpr_id == d->dpd_id;
	bool mod = field_match(d->dpd_mod, p->dtpr_mod) ||
	           (p->dtpr_provider->dtpv_aout && strcmp(d->dpd_mod, "a.out") == 0);
	return field_match(d->dpd_provider, p->dtpr_provider->dtpv_name) && mod &&
	       field_match(d->dpd_func, p->dtpr_func) &&
	       field_match(d->dpd_name, p->dtpr_name);
}

void dtrace_probe_desc(const dtrace_probe_t *p, dtrace_probedesc_t *out)
{
	kstrlcpy(out->dpd_provider, p->dtpr_provider->dtpv_name, sizeof(out->dpd_provider));
	kstrlcpy(out->dpd_mod, p->dtpr_mod, sizeof(out->dpd_mod));
	kstrlcpy(out->dpd_func, p->dtpr_func, sizeof(out->dpd_func));
	kstrlcpy(out->dpd_name, p->dtpr_name, sizeof(out->dpd_name));
	out->dpd_id = p->dtpr_id;
}

void (*dtrace_provide_meta)(const dtrace_probedesc_t *d);

void dtrace_provide_all(const dtrace_probedesc_t *d)
{
	if (dtrace_provide_meta != NULL)
		dtrace_provide_meta(d);             /* pid123 exists once named */
	for (dtrace_provider_t *pv = providers; pv != NULL; pv = pv->dtpv_next) {
		if (d != NULL && d->dpd_id == 0 && !field_match(d->dpd_provider, pv->dtpv_name))
			continue;
		if (pv->dtpv_ops->dtps_provide != NULL)
			pv->dtpv_ops->dtps_provide(pv->dtpv_arg, d);
	}
}

int dtrace_probe_list(const dtrace_probedesc_t *desc, dtrace_list_fn *fn, void *arg)
{
	dtrace_probedesc_t pd;
	int n = 0;

	mutex_lock(&dtrace_lock);
	dtrace_provide_all(desc);
	for (uint32_t i = 0; i < dtrace_nprobes; i++) {
		dtrace_probe_t *p = dtrace_probes[i];
		if (p->dtpr_retired || (desc != NULL && !dtrace_probe_matches(p, desc)))
			continue;
		n++;
		if (fn != NULL) {
			dtrace_probe_desc(p, &pd);
			fn(arg, p->dtpr_id, &pd);
		}
	}
	mutex_unlock(&dtrace_lock);
	return n;
}

int dtrace_probe_count(const dtrace_probedesc_t *desc)
{
	return dtrace_probe_list(desc, NULL, NULL);
}

int dtrace_probe_enable_hw(dtrace_probe_t *p)
{
	const dtrace_pops_t *ops = p->dtpr_provider->dtpv_ops;

	return ops->dtps_enable ? ops->dtps_enable(p->dtpr_provider->dtpv_arg, p->dtpr_id,
	                                           p->dtpr_arg) : 0;
}

void dtrace_probe_disable_hw(dtrace_probe_t *p)
{
	const dtrace_pops_t *ops = p->dtpr_provider->dtpv_ops;

	if (ops->dtps_disable)
		ops->dtps_disable(p->dtpr_provider->dtpv_arg, p->dtpr_id, p->dtpr_arg);
}
