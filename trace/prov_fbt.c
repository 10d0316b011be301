/*
 * prov_fbt.c - the function boundary tracing provider.
 *
 * fbt:kernel:<function>:entry and fbt:kernel:<function>:return for every
 * kernel function it can instrument safely.  A probe costs nothing until it
 * is enabled: the function's bytes are exactly what the compiler wrote.
 *
 * Which functions: every text symbol of the kernel symbol table (kernel/ksym.h)
 * that lies after the notrace region [__notrace_start, __notrace_end) of
 * linker.ld (the framework, DIF, the trap path, the machine halves of fbt and
 * sdt, and NOTRACE functions), is not on fbt_blocklist[] (functions elsewhere
 * that probe context calls), is not a linker symbol ("__" names, which alias
 * the function at their address; one address never gets two sets of probes),
 * and whose bytes decode from start to end
 * (fbt_isa_scan).  Return probes: one per `ret` found by the decoder, all
 * named "return"; entry probes: when the first instruction can be replayed
 * out of line (every standard prologue, most frameless leaves).
 *
 * Enabling plants a trap over the entry instruction and over each `ret`
 * (prov_isa_arm); the trap reaches fbt_invop() through the machine half, which
 * finds the site in a hash by address, fires the probe (entry: arg0..arg5 are
 * the function's arguments; return: arg0 = offset of the `ret`, arg1 = the
 * return value) with stack() starting at the probed function, and tells the
 * machine how to resume.  Disabling writes the saved bytes back.  Another CPU
 * may still take the trap after that (it had trapped already, or runs the
 * bytes it fetched before: text_patch_sync, which the framework calls after
 * each batch, bounds how long); such a trap fires nothing and replays the
 * displaced instruction, exactly as an armed one does, so it is harmless.
 *
 * With jumps on (fbt_jump_on), entry and return sites that can take a 5-byte
 * jump into a stub of their own instead (arch/x86_64/fbt_jump.c,
 * fbt_jump_ret.c) fire through fbt_fire_entry / fbt_fire_return, with no
 * trap and no lookup; the others keep the trap.
 *
 * Probes are made on the first dtps_provide call whose description could
 * name one (its probe name matches entry or return), not at boot, so that
 * booting, and a consumer of only BEGIN or other providers' probes, do not
 * pay for decoding the kernel.  Sites are never freed.
 *
 * Context: fbt_provide/enable/disable run in thread context under the
 * framework lock; fbt_invop runs in probe context.
 *
 * Tests: self-tests fbt_* (tests/kernel/prov_fbt_selftest.c); tests/d/fbt;
 *        tests/e2e/test_smp_enable.py
 */
#include "arch/arch.h"
#include "kernel/boot.h"
#include "kernel/ctf.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"
#include "trace/fbt_test.h"
#include "trace/provider.h"

/* One patch point: a function's entry, or one of its `ret`s. */
struct fbt_site {
	uint64_t fs_addr;            /* the patched instruction */
	uint64_t fs_resume;          /* entry: out-of-line copy (0 until first enabled) */
	struct fbt_site *fs_hnext;   /* hash chain */
	struct fbt_site *fs_next;    /* next site of the same probe */
	dtrace_id_t fs_id;           /* the probe */
	uint32_t fs_off;             /* offset in the function (return: arg0) */
	uint32_t fs_saved;           /* bytes the trap replaced */
	uint32_t fs_fsize;           /* the function's size (fbt_isa_jump_prepare, _ret_prepare) */
	int fs_jump;                 /* 0 not asked yet, -1 trap only, else jump index + 1 */
	bool fs_entry;
	volatile bool fs_armed;
};

#define FBT_HASH_BITS 12
static struct fbt_site *fbt_hash[1 << FBT_HASH_BITS];
static dtrace_provider_t *fbt_prov;
static bool fbt_provided;
static struct fbt_stats fbt_st;

bool fbt_jump_on = true;             /* entry sites as jumps where safe (boot flag nofbtjump: off) */

extern char __notrace_start[], __notrace_end[], _text_end[];

/*
 * Functions outside the notrace region that probe context may call (the
 * framework, the probe trap, the stack walker, the fault path) or that patch
 * text: the call graph from dtrace_probe, prov_isa_trap and profile_fire
 * (objdump of build/kernel.elf) leaves the notrace region only for these.  An
 * enabled probe on one of them would only be refused as re-entry, at a cost
 * in every other probe; keeping them out is clearer.
 */
static const char *const fbt_blocklist[] = {
	"curcpu", "arch_cpu_id", "curthread", "arch_curthread",
	"arch_irq_save", "arch_irq_restore", "arch_irq_enable", "arch_irq_disable",
	"arch_irq_enabled", "arch_cycles", "arch_time_ns", "ktime_ns", "arch_cpu_relax",
	"arch_backtrace", "mem_probe", "vm_leaf", "pmem_is_ram", "va_canonical", "vm_kernel_root",
	"text_patch", "text_patch_sync", "window_write", "pte_find", "memcpy", "memmove", "memset", "memcmp", "strlen",
	"strcmp", "strncmp", "strchr", "kstrlcpy",
	"spin_lock", "spin_unlock", "spin_acquire_raw", "spin_release_raw", "spin_held",
	"arch_safe_read", "lapic_eoi", "ksym_lookup_addr", "ksym_format",
	/* the fault path (a fault in probe context panics through these) */
	"panic", "kprintf", "kvprintf", "ksnprintf", "kvsnprintf", "emit_field", "emit_number",
	"console_write", "console_panic_mode", "arch_console_putc", "arch_poweroff",
};

/* fbt_site_lookup: the site at addr, or NULL.  Probe context. */
static struct fbt_site *fbt_site_lookup(uint64_t addr)
{
	struct fbt_site *s = fbt_hash[dtrace_addr_hash(addr, FBT_HASH_BITS)];

	while (s != NULL && s->fs_addr != addr)
		s = s->fs_hnext;
	return s;
}

bool fbt_invop(struct prov_trap *pt)
{
	struct fbt_site *s = fbt_site_lookup(pt->pt_pc);

	if (s == NULL)
		return false;
	/*
	 * Resume by replaying the displaced instruction even when the site is
	 * no longer armed (disabled as we trapped, or this CPU still runs the
	 * trap byte after it was taken out: see text_patch): resuming at the
	 * site instead could meet the same stale trap again, forever.
	 */
	pt->pt_resume = s->fs_entry ? PROV_RESUME_AT : PROV_RESUME_RETURN;
	pt->pt_resume_pc = s->fs_resume;
	if (s->fs_entry && s->fs_resume == 0)
		pt->pt_resume_pc = pt->pt_pc;        /* never armed: the byte is the original */
	if (!s->fs_armed)
		return true;
	/* At a boundary the function has no frame: [sp] is its return address, fp the caller's. */
	if (s->fs_entry) {
		dtrace_probe_frame(s->fs_id, pt->pt_cpu, pt->pt_arg, pt->pt_pc, pt->pt_fp, pt->pt_sp);
	} else {
		uint64_t args[6] = { s->fs_off, pt->pt_rval };
		dtrace_probe_frame(s->fs_id, pt->pt_cpu, args, pt->pt_pc, pt->pt_fp, pt->pt_sp);
	}
	return true;
}

/* ---- making probes ---- */

static bool fbt_name_blocked(const char *name)
{
	const char *dot = strchr(name, '.');

	if (name[0] == '_' && name[1] == '_')
		return true;            /* linker symbols (__notrace_end) alias a real function */

	/* gcc's clones are real functions; other dotted names are asm labels. */
	if (dot != NULL && strncmp(dot, ".isra", 5) != 0 && strncmp(dot, ".constprop", 10) != 0 &&
	    strncmp(dot, ".part", 5) != 0 && strncmp(dot, ".cold", 5) != 0)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(fbt_blocklist); i++) {
		if (strcmp(fbt_blocklist[i], name) == 0)
			return true;
	}
	return false;
}

static struct fbt_site *fbt_site_add(uint64_t addr, uint32_t off, bool entry, struct fbt_site *next)
{
	struct fbt_site *s = kzalloc(sizeof(*s));

	if (s == NULL)
		return NULL;
	s->fs_addr = addr;
	s->fs_off = off;
	s->fs_entry = entry;
	s->fs_next = next;
	fbt_st.fst_sites++;
	return s;
}

/*
 * fbt_probe_make: create one probe over its sites and hash them.  The frame
 * fbt hands to the framework starts at the probed function (pc = its entry
 * or the ret); aframes = 1 asks stack() to leave that first PC out, so that,
 * as in DTrace, stack() starts at the call site in the caller, and caller
 * (the second PC of the walk) is that same call site.
 */
static bool fbt_probe_make(const char *func, const char *name, struct fbt_site *sites)
{
	dtrace_id_t id = dtrace_probe_create(fbt_prov, "kernel", func, name, 1, sites);

	if (id == 0)
		return false;                   /* a second static function of the same name */
	fbt_st.fst_probes++;
	for (struct fbt_site *s = sites; s != NULL; s = s->fs_next) {
		uint64_t h = dtrace_addr_hash(s->fs_addr, FBT_HASH_BITS);
		s->fs_id = id;
		s->fs_hnext = fbt_hash[h];
		fbt_hash[h] = s;
	}
	return true;
}

static void fbt_provide_func(const struct ksym *ks)
{
	struct fbt_isa_func fi;
	struct fbt_site *rets = NULL;

	if (fbt_isa_scan(ks->ks_addr, ks->ks_size, &fi) < 0) {
		fbt_st.fst_undecodable++;
		return;
	}
	if (!fi.fi_entry_ok && fi.fi_nret == 0)
		return;
	fbt_st.fst_probed++;
	struct fbt_site *entry = fi.fi_entry_ok ? fbt_site_add(ks->ks_addr, 0, true, NULL) : NULL;
	if (entry != NULL)
		entry->fs_fsize = (uint32_t)ks->ks_size;
	if (entry == NULL || !fbt_probe_make(ks->ks_name, "entry", entry))
		fbt_st.fst_no_entry++;
	for (int i = fi.fi_nret - 1; i >= 0; i--) {
		rets = fbt_site_add(ks->ks_addr + fi.fi_ret[i], fi.fi_ret[i], false, rets);
		if (rets != NULL)
			rets->fs_fsize = (uint32_t)ks->ks_size;   /* fbt_isa_jump_ret_prepare */
	}
	if (rets != NULL)
		fbt_probe_make(ks->ks_name, "return", rets);
}

/* Could desc name an fbt probe?  All are named entry or return. */
static bool fbt_may_match(const dtrace_probedesc_t *desc)
{
	return desc == NULL || desc->dpd_id != 0 || dtrace_glob_match(desc->dpd_name, "entry") ||
	       dtrace_glob_match(desc->dpd_name, "return");
}

static void fbt_provide(void *arg, const dtrace_probedesc_t *desc)
{
	struct ksym ks;

	(void)arg;
	if (fbt_provided || !fbt_may_match(desc))
		return;
	fbt_provided = true;
	for (size_t i = 0; i < ksym_count(); i++) {
		if (!ksym_get(i, &ks) || !ks.ks_func || ks.ks_size == 0)
			continue;
		if (ks.ks_addr < (uint64_t)__notrace_end || ks.ks_addr >= (uint64_t)_text_end)
			continue;
		fbt_st.fst_functions++;
		if (fbt_name_blocked(ks.ks_name) || fbt_site_lookup(ks.ks_addr) != NULL)
			fbt_st.fst_blocked++;   /* excluded, or a second name for a probed address */
		else
			fbt_provide_func(&ks);
	}
}

/* ---- enabling ---- */

/*
 * fbt_jump_prepare: ask the machine once whether the entry site may be a
 * jump; if so the trap path resumes in the jump's copy too (it covers every
 * byte a jump displaces), so the site can go back and forth.
 */
static void fbt_jump_prepare(struct fbt_site *s)
{
	uint64_t copy = 0;
	int j = fbt_isa_jump_prepare(s->fs_addr, s->fs_fsize, s, &copy);

	s->fs_jump = j < 0 ? -1 : j + 1;
	if (j >= 0)
		s->fs_resume = copy;
}

void fbt_fire_entry(void *site, int cpu, const uint64_t *args, uint64_t pc, uint64_t fp,
                    const uint64_t *sp)
{
	const struct fbt_site *s = site;

	if (s->fs_armed)
		dtrace_probe_frame(s->fs_id, cpu, args, pc, fp, sp);
}

/*
 * fbt_jump_ret_prepare: ask the machine once whether the return site may be
 * a jump; if not it stays an int3 on its ret.  If so, its trap moves too
 * (to the first byte the jump displaces): it is a jump site from now on.
 */
static void fbt_jump_ret_prepare(struct fbt_site *s)
{
	int j = fbt_isa_jump_ret_prepare(s->fs_addr, s->fs_addr - s->fs_off, s->fs_fsize, s);

	s->fs_jump = j < 0 ? -1 : j + 1;
}

void fbt_fire_return(void *site, int cpu, const uint64_t *args, uint64_t pc, uint64_t fp,
                     const uint64_t *sp)
{
	const struct fbt_site *s = site;

	if (s->fs_armed)
		dtrace_probe_frame(s->fs_id, cpu, args, pc, fp, sp);
}

static int fbt_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg;
	(void)id;
	for (struct fbt_site *s = parg; s != NULL; s = s->fs_next) {
		if (s->fs_entry && fbt_jump_on && s->fs_jump == 0 && !s->fs_armed)
			fbt_jump_prepare(s);
		if (!s->fs_entry && fbt_jump_on && s->fs_jump == 0 && !s->fs_armed)
			fbt_jump_ret_prepare(s);
		if (s->fs_entry && s->fs_resume == 0 && (s->fs_resume = fbt_isa_entry_copy(s->fs_addr)) == 0)
			return -1;
	}
	/* Armed before the trap is planted: a hit in between must fire, not loop. */
	for (struct fbt_site *s = parg; s != NULL; s = s->fs_next) {
		if (s->fs_armed)
			continue;
		s->fs_armed = true;
		if (s->fs_jump > 0 ? !fbt_isa_jump_arm(s->fs_jump - 1, fbt_jump_on)
		                   : !prov_isa_arm(s->fs_addr, &s->fs_saved))
			s->fs_armed = false;
	}
	return 0;
}

static void fbt_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg;
	(void)id;
	for (struct fbt_site *s = parg; s != NULL; s = s->fs_next) {
		if (s->fs_armed && (s->fs_jump > 0 ? fbt_isa_jump_disarm(s->fs_jump - 1)
		                                   : prov_isa_disarm(s->fs_addr, s->fs_saved)))
			s->fs_armed = false;
	}
}

/*
 * fbt_getargdesc: the types of a function's arguments, from its prototype
 * in the kernel's CTF (kernel/ctf.h): the parameters at entry; at return
 * args[0] is an int (the return site's offset) and args[1] the return type.
 * gcc's clones (foo.isra.0) changed their parameters: no types.
 */
static int fbt_getargdesc(void *arg, const dtrace_probedesc_t *pd, void *parg, int argno,
                          dtrace_argdesc_t *ad)
{
	const ctf_dict_t *d = ctf_kernel();

	(void)arg;
	(void)parg;
	if (d == NULL || strchr(pd->dpd_func, '.') != NULL)
		return -1;
	return ctf_func_argname(d, pd->dpd_func, strcmp(pd->dpd_name, "return") == 0, argno,
	                        ad->dad_native, sizeof(ad->dad_native));
}

static const dtrace_pops_t fbt_pops = {
	.dtps_provide = fbt_provide,
	.dtps_enable = fbt_enable,
	.dtps_disable = fbt_disable,
	.dtps_getargdesc = fbt_getargdesc,
};

/* Stability: the fbt provider's table in the Dynamic Tracing Guide. */
static const dtrace_pattr_t fbt_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_args = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
};

/* A machine without jump-optimised entries (x86_64 has them: fbt_jump.c): every site traps. */
__attribute__((weak)) int fbt_isa_jump_prepare(uint64_t addr, uint64_t size, void *site, uint64_t *copy)
{
	(void)addr, (void)size, (void)site, (void)copy;
	return -1;
}
__attribute__((weak)) int fbt_isa_jump_ret_prepare(uint64_t ret, uint64_t func, uint64_t size, void *site)
{
	(void)ret, (void)func, (void)size, (void)site;
	return -1;
}
__attribute__((weak)) bool fbt_isa_jump_arm(int index, bool jump)
{
	(void)index, (void)jump;
	return false;
}
__attribute__((weak)) bool fbt_isa_jump_disarm(int index)
{
	(void)index;
	return false;
}
__attribute__((weak)) void prov_isa_optimize(void)
{
}
__attribute__((weak)) void fbt_isa_jump_forget(int index)
{
	(void)index;
}
__attribute__((weak)) void fbt_isa_jump_stats(struct fbt_jump_stats *out)
{
	*out = (struct fbt_jump_stats){ 0 };
}
__attribute__((weak)) const char *fbt_isa_jump_why(bool ret, int i)
{
	(void)ret;
	(void)i;
	return NULL;
}

/* A machine that does not count its probe traps (x86_64 does: fbt_isa.c). */
__attribute__((weak)) uint64_t prov_isa_trap_count(void)
{
	return 0;
}

/* fbt_init: register the provider (probes come on the first provide).  Boot. */
void fbt_init(void)
{
	if (cmdline_get(boot_info.bi_cmdline, "nofbtjump", NULL, 0))
		fbt_jump_on = false;
	fbt_prov = dtrace_register("fbt", &fbt_pops, NULL);
	if (fbt_prov == NULL)
		panic("fbt_init: cannot register");
	dtrace_provider_attr_set(fbt_prov, &fbt_attr);
}

/* fbt_stats_get: coverage figures (self-tests, docs).  Thread context. */
void fbt_stats_get(struct fbt_stats *out)
{
	*out = fbt_st;
}

/* ---- for the self-tests (tests/kernel/prov_fbt_selftest.c): no consumer needed ---- */

static struct fbt_site *fbt_site_of(uint64_t addr, bool entry)
{
	struct fbt_site *s = fbt_site_lookup(addr);

	return s != NULL && s->fs_entry == entry ? s : NULL;
}

/* fbt_probe_id: the id of fbt:kernel:func:name (entry or return), or 0. */
dtrace_id_t fbt_probe_id(const char *func, const char *name)
{
	struct ksym ks;
	bool entry = strcmp(name, "entry") == 0;
	struct fbt_isa_func fi;

	fbt_provide(NULL, NULL);
	if (!ksym_lookup_name(func, &ks) || fbt_isa_scan(ks.ks_addr, ks.ks_size, &fi) < 0)
		return 0;
	if (!entry && fi.fi_nret == 0)
		return 0;
	struct fbt_site *s = fbt_site_of(ks.ks_addr + (entry ? 0 : fi.fi_ret[0]), entry);
	return s != NULL ? s->fs_id : 0;
}

/* fbt_probe_set: enable (on) or disable probe id as the framework would. */
int fbt_probe_set(dtrace_id_t id, bool on)
{
	void *parg = dtrace_probe_arg(id);

	if (parg == NULL)
		return -1;
	int rc = 0;

	if (on)
		rc = fbt_enable(NULL, id, parg);
	else
		fbt_disable(NULL, id, parg);
	text_patch_sync();
	prov_isa_optimize();
	return rc;
}

/*
 * fbt_probe_unarm_stale: mark probe id's sites unarmed but leave their traps
 * in the text: what a CPU that still runs the trap bytes after a disable
 * meets.  The caller puts the bytes back.  Returns the sites so marked.
 */
int fbt_probe_unarm_stale(dtrace_id_t id)
{
	int n = 0;

	for (struct fbt_site *s = dtrace_probe_arg(id); s != NULL; s = s->fs_next, n++) {
		s->fs_armed = false;
		if (s->fs_jump > 0)
			fbt_isa_jump_forget(s->fs_jump - 1);     /* its bytes are the caller's now */
	}
	return n;
}

/* fbt_set_all: enable or disable every fbt probe; returns how many. */
int fbt_set_all(bool on)
{
	int n = 0;

	fbt_provide(NULL, NULL);
	for (size_t h = 0; h < ARRAY_SIZE(fbt_hash); h++) {
		for (struct fbt_site *s = fbt_hash[h]; s != NULL; s = s->fs_hnext) {
			if (dtrace_probe_arg(s->fs_id) != s)
				continue;                    /* not the probe's first site */
			if (on ? fbt_enable(NULL, s->fs_id, s) == 0 : (fbt_disable(NULL, s->fs_id, s), true))
				n++;
		}
	}
	text_patch_sync();
	prov_isa_optimize();
	return n;
}

/* fbt_entry_armed: entry sites armed now, jump or trap (the shell's probes command).  Thread context. */
int fbt_entry_armed(void)
{
	int n = 0;

	for (size_t h = 0; h < ARRAY_SIZE(fbt_hash); h++)
		for (struct fbt_site *s = fbt_hash[h]; s != NULL; s = s->fs_hnext)
			n += s->fs_entry && s->fs_armed;
	return n;
}

/* fbt_return_armed: return sites armed now, jump or trap (the shell's probes command).  Thread context. */
int fbt_return_armed(void)
{
	int n = 0;

	for (size_t h = 0; h < ARRAY_SIZE(fbt_hash); h++)
		for (struct fbt_site *s = fbt_hash[h]; s != NULL; s = s->fs_hnext)
			n += !s->fs_entry && s->fs_armed;
	return n;
}
