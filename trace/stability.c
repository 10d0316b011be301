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
 * the arguments' attributes are the provider's for its arguments.
 *
 * Context: thread context (listing); nothing here runs in probe context.
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

static dtrace_attribute_t attr_min(dtrace_attribute_t a, dtrace_attribute_t b)
{
	return (dtrace_attribute_t){
		MIN(a.dtat_name, b.dtat_name), MIN(a.dtat_data, b.dtat_data),
		MIN(a.dtat_class, b.dtat_class),
	};
}

int dtrace_probe_info(dtrace_id_t id, dtrace_probeinfo_t *out)
{
	memset(out, 0, sizeof(*out));
	mutex_lock(&dtrace_lock);
	dtrace_probe_t *p = id >= 1 && id <= dtrace_nprobes ? dtrace_probes[id - 1] : NULL;
	if (p == NULL) {
		mutex_unlock(&dtrace_lock);
		return DTRACE_EINVAL;
	}
	const dtrace_pattr_t *pa = &p->dtpr_provider->dtpv_attr;
	dtrace_attribute_t a = pa->dtpa_provider;
	if (p->dtpr_mod[0] != 0)
		a = attr_min(a, pa->dtpa_mod);
	if (p->dtpr_func[0] != 0)
		a = attr_min(a, pa->dtpa_func);
	if (p->dtpr_name[0] != 0)
		a = attr_min(a, pa->dtpa_name);
	dtrace_probe_desc(p, &out->dpi_desc);
	out->dpi_attr = a;
	out->dpi_arga = pa->dtpa_args;
	out->dpi_argc = 0;                      /* no argument types without CTF */
	mutex_unlock(&dtrace_lock);
	return 0;
}
