/*
 * stability.c - the stability attributes of probes (DTrace's "Stability").
 *
 * Every interface DTrace offers carries a triple: how stable its name is,
 * how stable the data behind it is, and which class of machines it depends
 * on (name-stability/data-stability/dependency-class, e.g.
 * Evolving/Evolving/ISA).  Each provider states the triple for the five
 * parts of its probes (provider, module, function, name, arguments) when
 * it registers, copying its chapter of the Guide.  What dtrace -lv prints
 * for one probe is computed as DTrace computes it: the description's
 * attributes are the lowest (member by member) of the provider's and of
 * each of module, function and name that the probe's name has (BEGIN has
 * neither module nor function, so only the provider and the name count);
 * the arguments' attributes are the provider's for its arguments.  A
 * description (dtrace -v's report) is judged the same way, by the parts it
 * names: a glob or an empty field says nothing, and a provider it does not
 * name exactly has DTrace's attributes for an unknown provider, Unstable.
 *
 * Context: thread context (listing); nothing here runs in probe context.
 *
 * Tests: tests/e2e/test_dtrace_listing.py (-lv); tests/d/options (-v)
 */
#include "kernel/klib.h"
#include "trace/trace_impl.h"

static const char *const stability_names[] = {
	"Internal", "Private", "Obsolete", "External", "Unstable", "Evolving", "Stable", "Standard",
};
static const char *const class_names[] = {
	"Unknown", "CPU", "Platform", "Group", "ISA", "Common",
};

const char *dtrace_stability_name(int stability)
{
	return stability >= 0 && stability < (int)ARRAY_SIZE(stability_names) ?
	       stability_names[stability] : "Unknown";
}

const char *dtrace_class_name(int class)
{
	return class >= 0 && class < (int)ARRAY_SIZE(class_names) ? class_names[class] : "Unknown";
}

void dtrace_provider_attr_set(dtrace_provider_t *prov, const dtrace_pattr_t *attr)
{
	prov->dtpv_attr = *attr;
}

void dtrace_provider_aout_set(dtrace_provider_t *prov)
{
	prov->dtpv_aout = true;
}

static dtrace_attribute_t attr_min(dtrace_attribute_t a, dtrace_attribute_t b)
{
	return (dtrace_attribute_t){
		MIN(a.dtat_name, b.dtat_name), MIN(a.dtat_data, b.dtat_data),
		MIN(a.dtat_class, b.dtat_class),
	};
}

/* A provider named by nothing or by a glob: DTrace's attributes for "some provider". */
static const dtrace_pattr_t unknown_provider = {
	.dtpa_provider = { DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_COMMON },
	.dtpa_mod = { DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_COMMON },
	.dtpa_func = { DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_COMMON },
	.dtpa_name = { DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_COMMON },
	.dtpa_args = { DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_COMMON },
};

static bool is_glob(const char *s)
{
	for (; *s != 0; s++)
		if (*s == '*' || *s == '?' || *s == '[' || *s == '\\')
			return true;
	return false;
}

/* named: does a description field name one thing (neither empty nor a glob)? */
static bool named(const char *s)
{
	return s[0] != 0 && !is_glob(s);
}

/*
 * attrs_of: the attributes of a description (prov, mod, func, name) with
 * provider attributes pa: the lowest of the provider's and of each part
 * the description names.  Its arguments have the provider's.
 */
static void attrs_of(const dtrace_pattr_t *pa, const char *mod, const char *func,
                     const char *name, dtrace_probeinfo_t *out)
{
	dtrace_attribute_t a = pa->dtpa_provider;

	if (named(mod))
		a = attr_min(a, pa->dtpa_mod);
	if (named(func))
		a = attr_min(a, pa->dtpa_func);
	if (named(name))
		a = attr_min(a, pa->dtpa_name);
	out->dpi_attr = a;
	out->dpi_arga = pa->dtpa_args;
	out->dpi_argc = 0;                      /* dtrace_probe_info adds the probe's */
}

/* argtypes_of: the provider's argument types of probe p (dtps_getargdesc), in order. */
static void argtypes_of(dtrace_probe_t *p, dtrace_probeinfo_t *out)
{
	const dtrace_pops_t *ops = p->dtpr_provider->dtpv_ops;

	if (ops->dtps_getargdesc == NULL)
		return;
	for (;;) {
		dtrace_argdesc_t ad;
		int i = out->dpi_argc;

		memset(&ad, 0, sizeof(ad));
		ad.dad_mapping = i;
		if (i >= 10 || ops->dtps_getargdesc(p->dtpr_provider->dtpv_arg, &out->dpi_desc,
		                                    p->dtpr_arg, i, &ad) != 0)
			break;
		bool xl = ad.dad_xlate[0] != 0;
		ksnprintf(out->dpi_argtypes[i], DTRACE_ARGTYPELEN, "%s", xl ? ad.dad_xlate : ad.dad_native);
		ksnprintf(out->dpi_argnative[i], DTRACE_ARGTYPELEN, "%s", xl ? ad.dad_native : "");
		out->dpi_argmap[i] = (int8_t)ad.dad_mapping;
		out->dpi_argc++;
	}
}

void dtrace_desc_info(const dtrace_probedesc_t *desc, dtrace_probeinfo_t *out)
{
	memset(out, 0, sizeof(*out));
	out->dpi_desc = *desc;
	mutex_lock(&dtrace_lock);
	dtrace_provider_t *prov = named(desc->dpd_provider) ?
	                          dtrace_provider_find(desc->dpd_provider) : NULL;
	attrs_of(prov != NULL ? &prov->dtpv_attr : &unknown_provider, desc->dpd_mod,
	         desc->dpd_func, desc->dpd_name, out);
	mutex_unlock(&dtrace_lock);
}

int dtrace_probe_info(dtrace_id_t id, dtrace_probeinfo_t *out)
{
	memset(out, 0, sizeof(*out));
	mutex_lock(&dtrace_lock);
	dtrace_probe_t *p = id >= 1 && id <= dtrace_nprobes ? dtrace_probes[id - 1] : NULL;
	if (p != NULL) {
		dtrace_probe_desc(p, &out->dpi_desc);
		attrs_of(&p->dtpr_provider->dtpv_attr, p->dtpr_mod, p->dtpr_func, p->dtpr_name, out);
		argtypes_of(p, out);
	}
	mutex_unlock(&dtrace_lock);
	return p != NULL ? 0 : DTRACE_EINVAL;
}

dtrace_attribute_t dtrace_attr_min(dtrace_attribute_t a, dtrace_attribute_t b)
{
	return attr_min(a, b);
}
