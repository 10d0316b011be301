/*
 * prov_sdt.c - the statically defined tracing provider.
 *
 * Kernel code marks interesting points with DTRACE_PROBEn(name, args...)
 * (kernel/sdt.h).  Each site is a 5-byte NOP plus a record in the
 * "sdt_sites" linker section: its address, the probe name as written, and
 * the registers that hold its arguments.  At boot sdt_init() checks every
 * site is still the NOP and makes one probe per (function, name):
 * sdt:kernel:<function>:<name>, with "__" in the name turned into "-"
 * (DTrace's convention: sched on__cpu -> on-cpu).  A probe with several
 * sites in one function (a name used twice) owns them all.
 *
 * Enabling plants a trap over each site's first byte; sdt_invop() finds the
 * site by address, fires the probe with arg0..argN read from the saved
 * registers the record names, and resumes after the NOP.  Disabling puts the
 * NOP back.  stack() starts at the site, in the function that holds it.
 * Where the machine can, the site becomes a direct call instead
 * (prov_isa.h: sdt_fire_regs; for a probe without arguments
 * sdt_fire_noargs, whose trampoline saves no register file).
 *
 * The scheduler's sites are also published as DTrace's sched provider
 * (sched:kernel:<function>:on-cpu, ...): a second probe over the same sites.
 * A site stays armed while either probe is enabled and fires both (a probe
 * nobody enabled returns at once).
 *
 * The kernel's statistics (kernel/cpu_stat.h) are sites too, named
 * sysinfo__<stat> and vminfo__<stat>: each is published only as DTrace's
 * sysinfo or vminfo probe, <provider>:kernel:<function>:<stat>, with the
 * same enabling and firing as any site.  So are the block layer's
 * (kernel/blkdev.c), io__start and so on, published as DTrace's io
 * provider (io:::start), whose one native argument, the struct buf *, is
 * args[0..2] translated to bufinfo_t, devinfo_t, fileinfo_t (dlang/lib/io.d),
 * and the file operations' (kernel/syscall.c), fsinfo__read and so on,
 * published as DTrace's fsinfo provider: args[0] the file's fileinfo_t
 * (translated from its struct file *), arg1 the operation's number (the
 * bytes asked for by a read or write, open's flags, 0 for most).
 *
 * Is-enabled tests (SDT_ENABLED in kernel/sdt.h): enabling a probe adds
 * one to the count of every sdt_flags record of its sites' name, before
 * the sites are armed; disabling takes one away, after they are disarmed.
 * So a record is non-zero exactly while some probe of that name (sdt's or
 * its sched alias) is enabled, through any enable/disable churn.  The
 * counts change atomically: records are read on every CPU without a lock.
 *
 * Context: sdt_init, enable, disable in thread context; sdt_invop in probe
 * context.
 *
 * Tests: self-tests sdt_* (tests/kernel/prov_sdt_selftest.c); tests/d/sdt,
 *        tests/d/sysinfo, tests/d/vminfo
 */
#include "kernel/boot.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"
#include "kernel/sdt.h"
#include "trace/provider.h"
#include "trace/sdt_test.h"
#include "trace/sdt_argtypes.h"

#define SDT_MAXARGS 6

struct sdt_psite {
	uint64_t ps_addr;
	struct sdt_psite *ps_hnext;  /* hash chain */
	struct sdt_psite *ps_next;   /* next site of the same probe */
	dtrace_id_t ps_id;
	dtrace_id_t ps_alias;        /* the same site as a sched provider probe, or 0 */
	const char *ps_name;         /* the name as written (fsinfo__lookup): its sdt_flags records */
	int ps_users;                /* enabled probes using this site (sdt and sched) */
	uint32_t ps_saved;
	int ps_nargs;
	int8_t ps_reg[SDT_MAXARGS];  /* pt_regs index of each argument */
	volatile bool ps_armed;
};

#define SDT_HASH_BITS 8
static struct sdt_psite *sdt_hash[1 << SDT_HASH_BITS];
static dtrace_provider_t *sdt_prov;

/* The providers named by prefix: a site named <sp_prefix><stat> is the probe <sp_name>:kernel:<func>:<stat>. */
static const dtrace_pattr_t sched_attr, cpu_stat_attr;
static struct sdt_stat_prov {
	const char *sp_name, *sp_prefix;
	const dtrace_pattr_t *sp_attr;
	dtrace_provider_t *sp_prov;
} sdt_stat_provs[] = {
	{ "sysinfo", "sysinfo__", &cpu_stat_attr, NULL },
	{ "vminfo", "vminfo__", &cpu_stat_attr, NULL },
	{ "io", "io__", &sched_attr, NULL },      /* the Guide's io table is sched's */
	{ "fsinfo", "fsinfo__", &sched_attr, NULL },  /* and fsinfo's too */
};
static int sdt_nsites, sdt_nprobes;
bool sdt_isa_call_on = true;         /* arm sites as direct calls (prov_isa.h); false: every site traps */

/* A machine without the call path (its sdt_isa.c does not define these): every site traps. */
__attribute__((weak)) int sdt_isa_call_sites(void)
{
	return 0;
}

__attribute__((weak)) int sdt_isa_call_noargs_sites(void)
{
	return 0;
}

__attribute__((weak)) bool sdt_isa_call_arm_noargs(uint64_t addr, uint32_t *saved)
{
	(void)addr;
	(void)saved;
	return false;
}


/* sdt_site_find: the site at pc, or NULL.  Probe context. */
static inline const struct sdt_psite *sdt_site_find(uint64_t pc)
{
	const struct sdt_psite *s = sdt_hash[dtrace_addr_hash(pc, SDT_HASH_BITS)];

	while (s != NULL && s->ps_addr != pc)
		s = s->ps_hnext;
	return s;
}

/* sdt_site_fire: fire s's probe (and its sched alias) with the arguments its record names.  Probe context. */
static inline void sdt_site_fire(const struct sdt_psite *s, const uint64_t *regs, uint64_t pc,
                                 uint64_t fp, int cpu)
{
	uint64_t a[SDT_MAXARGS] = { 0 };

	for (int i = 0; i < s->ps_nargs; i++)
		a[i] = regs[s->ps_reg[i]];
	/* Inside a function: its own frame is fp, stack() walks from there. */
	dtrace_probe_frame(s->ps_id, cpu, a, pc, fp, NULL);
	if (s->ps_alias != 0)
		dtrace_probe_frame(s->ps_alias, cpu, a, pc, fp, NULL);
}

bool sdt_invop(struct prov_trap *pt)
{
	const struct sdt_psite *s = sdt_site_find(pt->pt_pc);

	if (s == NULL)
		return false;
	/*
	 * Skip the site even when it is no longer armed (disabled as we
	 * trapped, or this CPU still runs the trap byte after it was taken
	 * out: see text_patch): the site is a no-op either way, and resuming
	 * at it could meet the same stale trap again, forever.
	 */
	pt->pt_resume = PROV_RESUME_AT;
	pt->pt_resume_pc = pt->pt_pc + SDT_ISA_SITE_LEN;
	if (s->ps_armed)
		sdt_site_fire(s, pt->pt_regs, pt->pt_pc, pt->pt_fp, pt->pt_cpu);
	return true;
}

void sdt_fire_regs(const uint64_t *regs, uint64_t pc, uint64_t fp, int cpu)
{
	const struct sdt_psite *s = sdt_site_find(pc);

	if (s != NULL && s->ps_armed)
		sdt_site_fire(s, regs, pc, fp, cpu);
}

static const uint64_t sdt_noargs[SDT_MAXARGS];   /* a probe without arguments: all 0 */

/*
 * sdt_fire_both: a site that is also a sched probe fires both
 * (sdt_fire_noargs's; its arguments where that has them, so that nothing moves).
 */
static __attribute__((noinline)) void sdt_fire_both(const struct sdt_psite *s, int cpu, const void *unused,
                                                    uint64_t pc, uint64_t fp)
{
	(void)unused;
	dtrace_probe_frame(s->ps_id, cpu, sdt_noargs, pc, fp, NULL);
	dtrace_probe_frame(s->ps_alias, cpu, sdt_noargs, pc, fp, NULL);
}

/* Both calls are tail calls (jumps): this saves no register. */
void sdt_fire_noargs(uint32_t unused0, int cpu, const void *unused2, uint64_t pc, uint64_t fp)
{
	const struct sdt_psite *s = sdt_site_find(pc);

	(void)unused0;
	if (s == NULL || !s->ps_armed)
		return;
	if (__builtin_expect(s->ps_alias != 0, 0))
		sdt_fire_both(s, cpu, unused2, pc, fp);
	else
		dtrace_probe_frame(s->ps_id, cpu, sdt_noargs, pc, fp, NULL);
}

/* ---- making probes ---- */

/* sdt_name: DTrace's probe name for a macro name (on__cpu -> on-cpu). */
static void sdt_name(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (; *in != '\0' && n + 1 < size; in++) {
		if (in[0] == '_' && in[1] == '_') {
			out[n++] = '-';
			in++;
		} else {
			out[n++] = *in;
		}
	}
	out[n] = '\0';
}

/* sdt_regs_parse: "%rdi %rax" -> pt_regs indices; false if a name is unknown. */
static bool sdt_regs_parse(const char *regs, struct sdt_psite *s)
{
	char name[8];

	while (*regs != '\0') {
		size_t n = 0;
		while (*regs == ' ')
			regs++;
		while (*regs != '\0' && *regs != ' ' && n + 1 < sizeof(name))
			name[n++] = *regs++;
		name[n] = '\0';
		if (n == 0)
			break;
		int idx = sdt_isa_regindex(name);
		if (idx < 0 || s->ps_nargs == SDT_MAXARGS)
			return false;
		s->ps_reg[s->ps_nargs++] = (int8_t)idx;
	}
	return true;
}

/* sdt_site_provider: the provider a site's probe belongs to, and its name without the provider's prefix. */
static dtrace_provider_t *sdt_site_provider(const char **name)
{
	for (size_t i = 0; i < ARRAY_SIZE(sdt_stat_provs); i++) {
		size_t n = strlen(sdt_stat_provs[i].sp_prefix);
		if (strncmp(*name, sdt_stat_provs[i].sp_prefix, n) == 0) {
			*name += n;
			return sdt_stat_provs[i].sp_prov;
		}
	}
	return sdt_prov;
}

static void sdt_site_make(const struct sdt_site *ss)
{
	char name[DTRACE_NAMELEN];
	struct ksym ks;
	struct sdt_psite *s;
	const char *as = ss->ss_name;
	dtrace_provider_t *prov = sdt_site_provider(&as);

	if (!sdt_isa_site_ok(ss->ss_addr) || (s = kzalloc(sizeof(*s))) == NULL)
		return;
	s->ps_addr = ss->ss_addr;
	s->ps_name = ss->ss_name;
	if (!sdt_regs_parse(ss->ss_regs, s)) {
		kfree(s);
		return;
	}
	sdt_name(as, name, sizeof(name));
	const char *func = ksym_lookup_addr(ss->ss_addr, &ks) ? ks.ks_name : "unknown";
	dtrace_id_t id = dtrace_probe_lookup(prov, "kernel", func, name);
	struct sdt_psite *first = id != 0 ? dtrace_probe_arg(id) : NULL;
	if (id == 0 && (id = dtrace_probe_create(prov, "kernel", func, name, 0, s)) == 0) {
		kfree(s);
		return;
	}
	if (first != NULL) {                         /* a second site of the same probe */
		s->ps_next = first->ps_next;
		first->ps_next = s;
	} else {
		sdt_nprobes++;
	}
	s->ps_id = id;
	uint64_t h = dtrace_addr_hash(s->ps_addr, SDT_HASH_BITS);
	s->ps_hnext = sdt_hash[h];
	sdt_hash[h] = s;
	sdt_nsites++;
}

/* ---- enabling ---- */

/* sdt_flags_add: add delta to every is-enabled record of name (SDT_ENABLED).  Thread context. */
static void sdt_flags_add(const char *name, int delta)
{
	for (struct sdt_flag *f = __start_sdt_flags; f < __stop_sdt_flags; f++)
		if (strcmp(f->sf_name, name) == 0)
			__atomic_add_fetch(&f->sf_on, (uint32_t)delta, __ATOMIC_SEQ_CST);
}

static int sdt_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg;
	(void)id;
	sdt_flags_add(((struct sdt_psite *)parg)->ps_name, 1);   /* before a site can fire */
	for (struct sdt_psite *s = parg; s != NULL; s = s->ps_next) {
		if (s->ps_users++ > 0 || s->ps_armed)
			continue;
		s->ps_armed = true;              /* before the trap: a hit must fire */
		if (s->ps_nargs == 0 && sdt_isa_call_arm_noargs(s->ps_addr, &s->ps_saved))
			continue;                    /* no arguments: the lean call (sdt_fire_noargs) */
		if (!prov_isa_arm(s->ps_addr, &s->ps_saved))
			s->ps_armed = false;
	}
	return 0;
}

static void sdt_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg;
	(void)id;
	for (struct sdt_psite *s = parg; s != NULL; s = s->ps_next) {
		if (s->ps_users > 0 && --s->ps_users > 0)
			continue;                    /* the other provider's probe still wants it */
		if (s->ps_armed && prov_isa_disarm(s->ps_addr, s->ps_saved))
			s->ps_armed = false;
	}
	sdt_flags_add(((struct sdt_psite *)parg)->ps_name, -1);
}

/* Argument types of sched and sdt probes: the table in trace/sdt_argtypes.h. */
static int sched_getargdesc(const dtrace_probedesc_t *pd, int argno, dtrace_argdesc_t *ad)
{
	for (size_t i = 0; i < ARRAY_SIZE(sched_typed); i++) {
		if (strcmp(pd->dpd_name, sched_typed[i].sa_name) != 0 || argno >= sched_typed[i].sa_nargs)
			continue;
		ksnprintf(ad->dad_native, sizeof(ad->dad_native), "%s", SCHED_NATIVE);
		ksnprintf(ad->dad_xlate, sizeof(ad->dad_xlate), "%s", sched_xlate[argno]);
		ad->dad_mapping = 0;
		return 0;
	}
	return -1;
}

static int sdt_getargdesc(void *arg, const dtrace_probedesc_t *pd, void *parg, int argno,
                          dtrace_argdesc_t *ad)
{
	const struct sdt_psite *s = parg;

	(void)arg;
	if (argno < 0 || s == NULL)
		return -1;
	if (strcmp(pd->dpd_provider, "sched") == 0)
		return s->ps_nargs >= 1 ? sched_getargdesc(pd, argno, ad) : -1;
	if (strcmp(pd->dpd_provider, "sysinfo") == 0 || strcmp(pd->dpd_provider, "vminfo") == 0) {
		if (argno >= 3)
			return -1;
		ksnprintf(ad->dad_native, sizeof(ad->dad_native), "%s", cpu_stat_argtypes[argno]);
		return 0;
	}
	if (strcmp(pd->dpd_provider, "fsinfo") == 0) {
		if (argno >= 2 || s->ps_nargs < 2)
			return -1;
		ksnprintf(ad->dad_native, sizeof(ad->dad_native), "%s", fsinfo_native[argno]);
		if (fsinfo_xlate[argno] != NULL)
			ksnprintf(ad->dad_xlate, sizeof(ad->dad_xlate), "%s", fsinfo_xlate[argno]);
		return 0;
	}
	if (strcmp(pd->dpd_provider, "io") == 0) {
		if (argno >= 3 || s->ps_nargs < 1)
			return -1;
		ksnprintf(ad->dad_native, sizeof(ad->dad_native), "%s", IO_NATIVE);
		ksnprintf(ad->dad_xlate, sizeof(ad->dad_xlate), "%s", io_xlate[argno]);
		ad->dad_mapping = 0;
		return 0;
	}
	if (strcmp(pd->dpd_provider, "sdt") != 0 || argno >= 2 || argno >= s->ps_nargs)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(sdt_argdescs); i++) {
		const char *t = sdt_argdescs[i].sa_types[argno];
		if (strcmp(pd->dpd_name, sdt_argdescs[i].sa_name) == 0 && t != NULL) {
			ksnprintf(ad->dad_native, sizeof(ad->dad_native), "%s", t);
			return 0;
		}
	}
	return -1;
}

static const dtrace_pops_t sdt_pops = {
	.dtps_enable = sdt_enable,
	.dtps_disable = sdt_disable,
	.dtps_getargdesc = sdt_getargdesc,
};

/* The sdt probe names the sched provider publishes too. */
static const char *const sched_names[] = {
	"on-cpu", "off-cpu", "enqueue", "dequeue", "wakeup", "sleep",
};

/* sched_alias: a sched provider probe over each scheduler site's probe. */
static void sched_alias(dtrace_provider_t *sched, const struct sdt_site *ss)
{
	char name[DTRACE_NAMELEN];
	struct ksym ks;

	sdt_name(ss->ss_name, name, sizeof(name));
	const char *func = ksym_lookup_addr(ss->ss_addr, &ks) ? ks.ks_name : "unknown";
	dtrace_id_t id = dtrace_probe_lookup(sdt_prov, "kernel", func, name);
	if (id == 0)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(sched_names); i++) {
		if (strcmp(name, sched_names[i]) != 0)
			continue;
		struct sdt_psite *first = dtrace_probe_arg(id);
		dtrace_id_t alias = dtrace_probe_lookup(sched, "kernel", func, name);
		if (alias == 0)
			alias = dtrace_probe_create(sched, "kernel", func, name, 0, first);
		for (struct sdt_psite *s = first; s != NULL; s = s->ps_next)
			s->ps_alias = alias;
	}
}

/* Stability: the sdt provider's table in the Dynamic Tracing Guide. */
static const dtrace_pattr_t sdt_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
	.dtpa_args = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
};

/* Stability: the sched provider's table in the Dynamic Tracing Guide (and the io provider's, the same). */
static const dtrace_pattr_t sched_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_args = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

/* Stability: the sysinfo and vminfo providers' tables in the Dynamic Tracing Guide (the same). */
static const dtrace_pattr_t cpu_stat_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_args = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
};

/* sdt_stat_register: the sysinfo, vminfo, io and fsinfo providers, before their sites are made.  Boot. */
static void sdt_stat_register(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(sdt_stat_provs); i++) {
		dtrace_provider_t *p = dtrace_register(sdt_stat_provs[i].sp_name, &sdt_pops, NULL);
		if (p == NULL)
			panic("sdt_init: cannot register %s", sdt_stat_provs[i].sp_name);
		dtrace_provider_attr_set(p, sdt_stat_provs[i].sp_attr);
		sdt_stat_provs[i].sp_prov = p;
	}
}

/* sdt_init: register the providers (sdt, sched, sysinfo, vminfo, io, fsinfo) and make a probe for every site.  Boot. */
void sdt_init(void)
{
	if (cmdline_get(boot_info.bi_cmdline, "nosdtcall", NULL, 0))
		sdt_isa_call_on = false;             /* every site traps */
	sdt_prov = dtrace_register("sdt", &sdt_pops, NULL);
	dtrace_provider_t *sched = dtrace_register("sched", &sdt_pops, NULL);
	if (sdt_prov == NULL || sched == NULL)
		panic("sdt_init: cannot register");
	dtrace_provider_attr_set(sdt_prov, &sdt_attr);
	dtrace_provider_attr_set(sched, &sched_attr);
	sdt_stat_register();
	for (const struct sdt_site *ss = __start_sdt_sites; ss < __stop_sdt_sites; ss++)
		sdt_site_make(ss);
	for (const struct sdt_site *ss = __start_sdt_sites; ss < __stop_sdt_sites; ss++)
		sched_alias(sched, ss);
}

/* sdt_count: sites and probes made (self-tests, docs).  Thread context. */
void sdt_count(int *sites, int *probes)
{
	*sites = sdt_nsites;
	*probes = sdt_nprobes;
}

/* ---- for the self-tests (tests/kernel/prov_sdt_selftest.c): no consumer needed ---- */

/* sdt_probe_id: the id of sdt:kernel:func:name, or 0. */
dtrace_id_t sdt_probe_id(const char *func, const char *name)
{
	return sdt_prov != NULL ? dtrace_probe_lookup(sdt_prov, "kernel", func, name) : 0;
}

/* sdt_probe_set: enable (on) or disable probe id as the framework would. */
int sdt_probe_set(dtrace_id_t id, bool on)
{
	void *parg = dtrace_probe_arg(id);

	if (parg == NULL)
		return -1;
	if (on)
		return sdt_enable(NULL, id, parg);
	sdt_disable(NULL, id, parg);
	return 0;
}
