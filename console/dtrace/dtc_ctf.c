/*
 * dtc_ctf.c - what the compiler learns from the kernel about types.
 *
 * The D compiler (dlang/dt_ctf.c) asks three questions, answered here from
 * the running kernel:
 *   o_ctf        the kernel's CTF dict (kernel/ctf_kernel.c), NULL if the
 *                image has none or it failed its checks at boot
 *   o_symlookup  `name: the symbol's address and size (kernel/ksym.c)
 *   o_argtype    args[i]'s type: what the providers say of every probe the
 *                description matches (dtrace_probe_info), if they all say
 *                the same; probes typed differently (or some typed, some
 *                not) are DTrace's "unstable set", and so are more than
 *                ARGTYPE_MAX matching probes when any is typed (checking
 *                thousands of fbt probes would cost more than the compile;
 *                DTrace refuses fbt:::entry's args[] too)
 *
 * Context: the consumer's thread, while it compiles (framework lock taken
 * and released by the calls here, never held across them).
 *
 * Tests: tests/d/ctf
 */
#include "kernel/ctf.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "console/dtrace/dtc.h"

#define ARGTYPE_MAX 64

static int symlookup_cb(void *arg, const char *name, uint64_t *addr, uint64_t *size)
{
	struct ksym ks;

	(void)arg;
	if (!ksym_lookup_name(name, &ks))
		return -1;
	*addr = ks.ks_addr;
	*size = ks.ks_size;
	return 0;
}

struct argtype_ids {
	dtrace_id_t ids[ARGTYPE_MAX];
	uint32_t n;
	bool over;
};

static void argtype_collect(void *arg, dtrace_id_t id, const dtrace_probedesc_t *pd)
{
	struct argtype_ids *l = arg;

	(void)pd;
	if (l->n < ARGTYPE_MAX)
		l->ids[l->n++] = id;
	else
		l->over = true;
}

/* One probe's argument argno: its native and translated ("") types and mapping. */
static void argtype_of(const dtrace_probeinfo_t *pi, int argno, char *native, char *xlate, int *map)
{
	bool xl = pi->dpi_argnative[argno][0] != 0;

	ksnprintf(native, DT_ARGTYPELEN, "%s", xl ? pi->dpi_argnative[argno] : pi->dpi_argtypes[argno]);
	ksnprintf(xlate, DT_ARGTYPELEN, "%s", xl ? pi->dpi_argtypes[argno] : "");
	*map = xl ? pi->dpi_argmap[argno] : argno;
}

static int argtype_cb(void *arg, const dt_probedesc *cpd, int argno, char *native, char *xlate,
                      int *map)
{
	char nb[DT_ARGTYPELEN], xb[DT_ARGTYPELEN];
	int m;

	static struct argtype_ids l;    /* the consumer's thread only: one compile at a time */
	static dtrace_probeinfo_t pi;
	dtrace_probedesc_t pd = dtrace_desc_of(cpd);

	(void)arg;
	l.n = 0;
	l.over = false;
	if (dtrace_probe_list(&pd, argtype_collect, &l) <= 0 || argno < 0 || argno > 9)
		return -1;
	int typed = 0, untyped = 0, beyond = 0;
	for (uint32_t i = 0; i < l.n; i++) {
		if (dtrace_probe_info(l.ids[i], &pi) != 0 || pi.dpi_argc == 0) {
			untyped++;
			continue;
		}
		if (argno >= pi.dpi_argc) {
			beyond++;
			continue;
		}
		if (typed++ == 0) {
			argtype_of(&pi, argno, native, xlate, map);
			continue;
		}
		argtype_of(&pi, argno, nb, xb, &m);
		if (strcmp(native, nb) != 0 || strcmp(xlate, xb) != 0 || m != *map)
			return DT_ARGTYPE_UNSTABLE;
	}
	if (untyped == (int)l.n)
		return -1;                  /* a provider that types nothing */
	if (l.over || untyped > 0 || (typed > 0 && beyond > 0))
		return DT_ARGTYPE_UNSTABLE;
	return beyond > 0 ? DT_ARGTYPE_NOARG : 0;
}

void dtc_ctf_opts(dt_opts *o)
{
	o->o_ctf = ctf_kernel();
	o->o_symlookup = symlookup_cb;
	o->o_argtype = argtype_cb;
}
