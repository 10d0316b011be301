/*
 * prov_pid.c - the pid provider (any instruction of a running process) and
 * USDT (probes a user program declares).
 *
 *   pid<PID>:<program>:<function>:entry     arg0..arg5 = the function's arguments
 *   pid<PID>:<program>:<function>:return    arg0 = offset of the ret, arg1 = the
 *                                           return value (%rax; %o0 on sparc64)
 *   pid<PID>:<program>:<function>:<hex>     the instruction at that offset
 *                                           (arguments undefined: use uregs[])
 *
 * As in DTrace's fasttrap, pid is a class of providers: pid123 exists once
 * a description names it (dtrace_provide_meta, called before every match)
 * and process 123 is alive; its probes are made on demand from the
 * program's .symtab and the decoder (kernel/pid_isa.h), only those the
 * description asks for: entry and return probes of the functions whose
 * names match, and offset probes when the name is a hex offset, or is
 * empty or a glob and the function is named exactly (pid123::foo: gives
 * every instruction of foo; pid123::: does not give every instruction of
 * the program).  The module is the program's name (there are no shared
 * objects), and "a.out" names it too, as in DTrace.  Return probes sit on
 * every `ret`, and on every jump out of the function (a tail call, which
 * never comes back to run a `ret`: pid_isa_tailcall), as DTrace's do; a
 * function whose bytes do not all decode gets only its entry probe.
 *
 * Per process, a slot (struct pid_proc) holds the sites, hashed by
 * address.  A site is one probed address: it may carry an entry (or USDT)
 * probe, a return probe and an offset probe at once (a function whose first
 * instruction is its `ret` or its tail jump has its entry and its return
 * there; they fire in that order, then the offset probe).  Enabling plants the
 * machine's trap (ARCH_PID_TRAP: int3, or sparc64's `ta 0x71`) over the
 * site's first bytes in the process's own text page
 * (arch_user_text_poke); disabling the last of its probes puts the bytes
 * back.  Other processes running the same program are untouched (their
 * pages are their own).  fork gives the child a copy with every byte the
 * parent's probes ever replaced put back (pid_fork_hook), so the child runs
 * untraced, as in DTrace.  Exit and exec end the slot (pid_gone_hook): its
 * probes fire no more, and the next match or listing retires them
 * (dtrace_probe_retire: they neither match nor list, and a new image of the
 * same process can have probes of the same names); enablings made before
 * stay until their consumer ends, doing nothing.
 *
 * USDT (userland/libc/usdt.h): a program's `sonde_usdt` section lists its
 * probe sites (NOPs) and is-enabled sites (a register cleared), which the
 * machine half recognises (pid_isa_usdt).
 * <provider><PID> is registered when a description names it and process
 * PID's program declares that provider, or when a description's provider
 * is a glob or empty with a module (dtrace -l -m PROG, 'shop*:::', and
 * plain dtrace -l) and a live process's program matches (usdt_meta_all);
 * its probes,
 * <provider><PID>:<prog>:<function>:<name>, are sites of the same slot
 * (USDT_PROBE fires with the registers the record names; USDT_IS_ENABLED
 * fires nothing and replays the machine's "yes": `mov $1,%eax`), enabled
 * like return probes.
 *
 * A trap from user mode reaches pid_invop through the machine half, which
 * then replays the displaced instruction; a trap at an address with no
 * site is the program's own and gets SIGTRAP as before.
 *
 * Memory: slots are a fixed table; sites and probe data are never freed
 * (a stale trap may still look a site up; retired probes keep their ids).
 *
 * Order: the trap, slots, making pid probes, enabling, USDT, the class of
 * providers, process events.
 *
 * Context: provide/enable/disable run in thread context under dtrace_lock
 * and then pid_lock; the fork and exit/exec hooks in the process's own
 * thread under pid_lock; pid_invop in probe context (the process's own
 * trap, interrupts off), without locks: a process's slot and sites are
 * only looked up by its own thread.
 *
 * Tests: tests/d/pid; tests/e2e/test_pid.py
 */
#include "arch/arch.h"
#include "kernel/elf.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/pid_isa.h"
#include "kernel/proc.h"
#include "kernel/prov_isa.h"
#include "trace/trace_impl.h"

#define PID_PROCS     32             /* processes traced at once */
#define PID_HASH_BITS 8
static const uint8_t pid_trap[ARCH_PID_TRAP_LEN] = ARCH_PID_TRAP;   /* what a planted site holds */

enum pid_kind { PID_ENTRY, PID_RETURN, PID_OFFSET, PID_USDT };
enum pid_usdt { USDT_NONE, USDT_PROBE, USDT_IS_ENABLED };
#define USDT_MAXARGS 6

/* One probed address. */
struct pid_site {
	uint64_t ps_addr;
	uint32_t ps_off;             /* offset in the function (a return probe's arg0) */
	struct pid_site *ps_hnext;   /* hash chain */
	struct pid_site *ps_all;     /* every site of the slot (fork) */
	struct pid_site *ps_rnext;   /* next site of the same return probe */
	dtrace_id_t ps_bound;        /* its entry or USDT probe, or 0 */
	dtrace_id_t ps_ret;          /* its return probe, or 0 (a function's first instruction may
	                                be its jmp or ret: the site has both then) */
	dtrace_id_t ps_offset;       /* its offset probe, or 0 */
	bool ps_entry;               /* ps_bound is an entry probe */
	uint8_t ps_usdt;             /* enum pid_usdt: ps_bound is a USDT probe (this site's kind) */
	uint8_t ps_orig[ARCH_PID_TRAP_LEN];  /* the text's first bytes (what disabling writes back) */
	int8_t ps_nargs;             /* USDT: arguments, and the pt_regs index of each */
	int8_t ps_reg[USDT_MAXARGS];
	volatile uint8_t ps_on;      /* 1: ps_bound enabled, 2: ps_offset, 4: ps_ret */
	bool ps_planted;             /* int3 is in the text now */
	bool ps_ever;                /* was planted once (fork puts the byte back) */
	struct pid_isa_insn ps_insn; /* the displaced instruction */
};

/* A traced process (one image of it: exec ends the slot). */
struct pid_proc {
	volatile bool pp_live;
	int pp_pid;
	uint32_t pp_gen;             /* counts reuses of the slot */
	struct arch_as *pp_as;
	const struct kfile *pp_image;
	char pp_mod[PROC_NAME_MAX];
	struct elf_image pp_elf;     /* where the text's bytes are in the file */
	struct pid_site *pp_sites;
	struct pid_probe *pp_probes; /* every probe made for this image (retired once it is gone) */
	struct pid_site *pp_hash[1 << PID_HASH_BITS];
};

/* A probe's parg. */
struct pid_probe {
	struct pid_proc *pb_pp;
	uint32_t pb_gen;
	enum pid_kind pb_kind;
	struct pid_site *pb_sites;   /* entry, offset: one; return, USDT: chained by ps_rnext */
	dtrace_id_t pb_id;
	struct pid_probe *pb_next;   /* the slot's pp_probes */
};

static struct pid_proc pid_procs[PID_PROCS];
static mutex_t pid_lock = MUTEX_INIT("pid");

/* ---- the trap (probe context) ---- */

static struct pid_proc *pid_proc_of(int pid, struct arch_as *as)
{
	for (int i = 0; i < PID_PROCS; i++) {
		struct pid_proc *pp = &pid_procs[i];
		if (__atomic_load_n(&pp->pp_live, __ATOMIC_ACQUIRE) && pp->pp_pid == pid && pp->pp_as == as)
			return pp;
	}
	return NULL;
}

static struct pid_site *pid_site_find(struct pid_proc *pp, uint64_t addr)
{
	struct pid_site *s = __atomic_load_n(&pp->pp_hash[dtrace_addr_hash(addr, PID_HASH_BITS)], __ATOMIC_ACQUIRE);

	while (s != NULL && s->ps_addr != addr)
		s = s->ps_hnext;
	return s;
}

const struct pid_isa_insn *pid_invop(struct pid_trap *pt)
{
	struct pid_proc *pp = pid_proc_of(pt->pt_pid, pt->pt_as);
	struct pid_site *s = pp != NULL ? pid_site_find(pp, pt->pt_pc) : NULL;

	if (s == NULL)
		return NULL;
	uint8_t on = s->ps_on;
	if (pt->pt_fire == PID_FIRE_RETURN)
		on &= 4;                             /* the second call fires the return probe only */
	else if (pt->pt_fire == PID_FIRE_BEFORE)
		on &= (uint8_t)~4;
	if ((on & 1) && s->ps_usdt == USDT_PROBE) {
		uint64_t args[6] = { 0 };
		for (int i = 0; i < s->ps_nargs; i++)
			args[i] = pt->pt_regs[s->ps_reg[i]];
		dtrace_probe_user(s->ps_bound, pt->pt_cpu, args, pt->pt_pc);
	} else if ((on & 1) && s->ps_entry) {
		pt->pt_entry = true;
		dtrace_probe_user(s->ps_bound, pt->pt_cpu, pt->pt_arg, pt->pt_pc);
		pt->pt_entry = false;
	}                                        /* (an is-enabled site's replay is its answer) */
	if (on & 4) {
		uint64_t args[6] = { s->ps_off, pt->pt_rval };
		dtrace_probe_user(s->ps_ret, pt->pt_cpu, args, pt->pt_pc);
	}
	if (on & 2)
		dtrace_probe_user(s->ps_offset, pt->pt_cpu, pt->pt_arg, pt->pt_pc);
	return &s->ps_insn;
}

/* ---- slots ---- */

/* pid_proc_find: the live slot of pid, or NULL.  pid_lock held. */
static struct pid_proc *pid_proc_find(int pid)
{
	for (int i = 0; i < PID_PROCS; i++)
		if (pid_procs[i].pp_live && pid_procs[i].pp_pid == pid)
			return &pid_procs[i];
	return NULL;
}

/*
 * pid_proc_reap: retire the probes of every slot whose process has gone
 * (pid_gone_hook ended it), so that they list no more and their names can
 * be made again for a new image.  dtrace_lock and pid_lock held.
 */
static void pid_proc_reap(void)
{
	for (int i = 0; i < PID_PROCS; i++) {
		struct pid_proc *pp = &pid_procs[i];
		if (pp->pp_live)
			continue;
		for (struct pid_probe *pb = pp->pp_probes; pb != NULL; pb = pb->pb_next)
			dtrace_probe_retire(pb->pb_id);
		pp->pp_probes = NULL;
	}
}

/* pid_proc_make: a slot for process pid as it runs now, or NULL (gone, exiting, table full).  pid_lock held. */
static struct pid_proc *pid_proc_make(int pid)
{
	struct proc *p = proc_lookup(pid);
	struct pid_proc *pp = NULL;
	char why[8];

	if (p == NULL || p->p_exiting || p->p_as == NULL || p->p_image == NULL)
		return NULL;
	for (int i = 0; i < PID_PROCS && pp == NULL; i++)
		if (!pid_procs[i].pp_live)
			pp = &pid_procs[i];
	if (pp == NULL)
		return NULL;
	pid_proc_reap();                         /* its last image's probes go first */
	if (elf_parse(p->p_image->kf_data, p->p_image->kf_size, ARCH_ELF_MACHINE, ARCH_USER_BASE,
	              ARCH_USER_TOP, &pp->pp_elf, why, sizeof(why)) < 0)
		return NULL;
	memset(pp->pp_hash, 0, sizeof(pp->pp_hash));
	pp->pp_sites = NULL;
	pp->pp_probes = NULL;
	pp->pp_gen++;
	pp->pp_pid = pid;
	pp->pp_as = p->p_as;
	pp->pp_image = p->p_image;
	memcpy(pp->pp_mod, p->p_execname, sizeof(pp->pp_mod));
	__atomic_store_n(&pp->pp_live, true, __ATOMIC_RELEASE);
	return pp;
}

/* pid_text: the file's bytes of [addr, addr + size) if they are in an executable segment, else NULL. */
static const uint8_t *pid_text(const struct pid_proc *pp, uint64_t addr, uint64_t size)
{
	for (int i = 0; i < pp->pp_elf.ei_nseg; i++) {
		const struct elf_seg *sg = &pp->pp_elf.ei_seg[i];
		if ((sg->es_flags & ELF_PF_X) && addr >= sg->es_vaddr && size <= sg->es_filesz &&
		    addr - sg->es_vaddr <= sg->es_filesz - size)
			return pp->pp_image->kf_data + sg->es_offset + (addr - sg->es_vaddr);
	}
	return NULL;
}

/* ---- making probes (pid_lock held) ---- */

/* pid_site_get: the site at addr (made and hashed if new, with the instruction pi). */
static struct pid_site *pid_site_get(struct pid_proc *pp, uint64_t addr, uint32_t off,
                                     const struct pid_isa_insn *pi)
{
	struct pid_site *s = pid_site_find(pp, addr);

	if (s != NULL || (s = kzalloc(sizeof(*s))) == NULL)
		return s;
	s->ps_addr = addr;
	s->ps_off = off;
	s->ps_insn = *pi;
	memcpy(s->ps_orig, pi->pi_bytes, sizeof(s->ps_orig));
	s->ps_all = pp->pp_sites;
	pp->pp_sites = s;
	uint32_t h = dtrace_addr_hash(addr, PID_HASH_BITS);
	s->ps_hnext = pp->pp_hash[h];
	__atomic_store_n(&pp->pp_hash[h], s, __ATOMIC_RELEASE);
	return s;
}

static struct pid_probe *pid_probe_new(struct pid_proc *pp, enum pid_kind kind, struct pid_site *sites)
{
	struct pid_probe *pb = kzalloc(sizeof(*pb));

	if (pb != NULL) {
		*pb = (struct pid_probe){ pp, pp->pp_gen, kind, sites, 0, pp->pp_probes };
		pp->pp_probes = pb;
	}
	return pb;
}

/* What one provide call asks for in each function. */
struct pid_want {
	dtrace_provider_t *pw_prov;
	struct pid_proc *pw_pp;
	const dtrace_probedesc_t *pw_desc;
	bool pw_entry, pw_return, pw_all_offsets;
	int64_t pw_offset;           /* one offset probe, or -1 */
};

static void pid_make_entry(const struct pid_want *w, const char *func, uint64_t addr,
                           const struct pid_isa_insn *pi)
{
	dtrace_provider_t *prov = w->pw_prov;

	if (pi->pi_how == PID_HOW_NONE || dtrace_probe_lookup(prov, w->pw_pp->pp_mod, func, "entry"))
		return;
	struct pid_site *s = pid_site_get(w->pw_pp, addr, 0, pi);
	if (s != NULL && s->ps_usdt != USDT_NONE)
		return;                              /* a USDT site owns its boundary probe */
	struct pid_probe *pb = s != NULL ? pid_probe_new(w->pw_pp, PID_ENTRY, s) : NULL;
	dtrace_id_t id = pb != NULL ? dtrace_probe_create(prov, w->pw_pp->pp_mod, func, "entry", 0, pb) : 0;
	if (id != 0) {
		pb->pb_id = id;
		s->ps_bound = id;
		s->ps_entry = true;
	}
}

static void pid_make_offset(const struct pid_want *w, const char *func, uint64_t addr, uint32_t off,
                            const struct pid_isa_insn *pi)
{
	char name[24];

	ksnprintf(name, sizeof(name), "%x", off);
	if (pi->pi_how == PID_HOW_NONE || dtrace_probe_lookup(w->pw_prov, w->pw_pp->pp_mod, func, name))
		return;
	struct pid_site *s = pid_site_get(w->pw_pp, addr, off, pi);
	if (s != NULL && s->ps_usdt == USDT_IS_ENABLED)
		return;                              /* its replay is not the text's instruction */
	struct pid_probe *pb = s != NULL ? pid_probe_new(w->pw_pp, PID_OFFSET, s) : NULL;
	dtrace_id_t id = pb != NULL ? dtrace_probe_create(w->pw_prov, w->pw_pp->pp_mod, func, name, 0, pb) : 0;
	if (id != 0) {
		pb->pb_id = id;
		s->ps_offset = id;
	}
}

/* pid_make_return: one probe over the rets at offs[0..n). */
static void pid_make_return(const struct pid_want *w, const char *func, uint64_t addr,
                            const uint32_t *offs, int n, const uint8_t *text)
{
	struct pid_site *sites = NULL;

	if (n == 0 || dtrace_probe_lookup(w->pw_prov, w->pw_pp->pp_mod, func, "return"))
		return;
	for (int i = n - 1; i >= 0; i--) {
		struct pid_isa_insn pi;
		pid_isa_decode(text + offs[i], 15, addr + offs[i], &pi);
		struct pid_site *s = pid_site_get(w->pw_pp, addr + offs[i], offs[i], &pi);
		if (s == NULL || s->ps_ret != 0 || s->ps_usdt != USDT_NONE)
			continue;
		s->ps_rnext = sites;
		sites = s;
	}
	struct pid_probe *pb = sites != NULL ? pid_probe_new(w->pw_pp, PID_RETURN, sites) : NULL;
	dtrace_id_t id = pb != NULL ? dtrace_probe_create(w->pw_prov, w->pw_pp->pp_mod, func, "return", 0, pb) : 0;
	if (pb != NULL)
		pb->pb_id = id;
	for (struct pid_site *s = sites; id != 0 && s != NULL; s = s->ps_rnext)
		s->ps_ret = id;
}

#define PID_MAXRET 64

/* pid_func: the probes w asks for in one function (an elf_func_fn). */
static bool pid_func(const char *func, uint64_t addr, uint64_t size, void *arg)
{
	const struct pid_want *w = arg;
	const uint8_t *text = pid_text(w->pw_pp, addr, size);
	uint32_t rets[PID_MAXRET];
	int nret = 0;
	struct pid_isa_insn pi;

	if (text == NULL || !dtrace_glob_match(w->pw_desc->dpd_func, func))
		return true;
	for (uint64_t off = 0; off < size; off += pi.pi_len) {
		if (pid_isa_decode(text + off, size - off, addr + off, &pi) < 0)
			return true;                  /* not all decodable: entry only (below) */
		if (off == 0 && w->pw_entry)
			pid_make_entry(w, func, addr, &pi);
		if (w->pw_all_offsets || w->pw_offset == (int64_t)off)
			pid_make_offset(w, func, addr + off, (uint32_t)off, &pi);
		bool ret = pi.pi_ret || pid_isa_tailcall(&pi, addr + off, addr, addr + size);
		if (ret && nret < PID_MAXRET)
			rets[nret] = (uint32_t)off;
		nret += ret;
	}
	if (w->pw_return && nret <= PID_MAXRET)        /* more rets than that: no return probe */
		pid_make_return(w, func, addr, rets, nret, text);
	return true;
}

static bool is_glob(const char *s)
{
	return s[0] == 0 || strchr(s, '*') || strchr(s, '?') || strchr(s, '[') || strchr(s, '\\');
}

/* pid_hex: the offset a probe name such as "1c" names, or -1. */
static int64_t pid_hex(const char *s)
{
	int64_t v = 0;

	if (s[0] == 0 || strlen(s) > 8)
		return -1;
	for (; *s; s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static void pid_provide(void *arg, const dtrace_probedesc_t *desc)
{
	int pid = (int)(uintptr_t)arg;
	dtrace_provider_t *prov;
	char pname[DTRACE_PROVNAMELEN];

	if (desc == NULL)
		return;                           /* listing everything: only what exists */
	ksnprintf(pname, sizeof(pname), "pid%d", pid);
	if ((prov = dtrace_provider_find(pname)) == NULL)
		return;
	mutex_lock(&pid_lock);
	struct pid_proc *pp = pid_proc_find(pid);
	if (pp == NULL)
		pp = pid_proc_make(pid);
	if (pp != NULL && (dtrace_glob_match(desc->dpd_mod, pp->pp_mod) || strcmp(desc->dpd_mod, "a.out") == 0)) {
		const char *name = desc->dpd_name;
		struct pid_want w = { prov, pp, desc, dtrace_glob_match(name, "entry"),
		                      dtrace_glob_match(name, "return"),
		                      is_glob(name) && !is_glob(desc->dpd_func), pid_hex(name) };
		elf_func_each(pp->pp_image->kf_data, pp->pp_image->kf_size, pid_func, &w);
	}
	mutex_unlock(&pid_lock);
}

/* ---- enabling ---- */

static bool pid_probe_current(const struct pid_probe *pb)
{
	return pb->pb_pp->pp_live && pb->pb_pp->pp_gen == pb->pb_gen;
}

/* pid_site_set: turn bit (1 entry or USDT, 2 offset, 4 return) of s on or off, planting or restoring the byte. */
static void pid_site_set(struct pid_proc *pp, struct pid_site *s, uint8_t bit, bool on)
{
	uint8_t old[ARCH_PID_TRAP_LEN], was[ARCH_PID_TRAP_LEN];

	s->ps_on = on ? (uint8_t)(s->ps_on | bit) : (uint8_t)(s->ps_on & ~bit);
	if (s->ps_on != 0 && !s->ps_planted) {
		if (!arch_user_text_poke(pp->pp_as, s->ps_addr, pid_trap, sizeof(pid_trap), old))
			return;
		if (memcmp(old, s->ps_orig, sizeof(old)) != 0) {   /* not the text we decoded: leave it */
			arch_user_text_poke(pp->pp_as, s->ps_addr, old, sizeof(old), was);
			return;
		}
		s->ps_planted = s->ps_ever = true;
	} else if (s->ps_on == 0 && s->ps_planted) {
		arch_user_text_poke(pp->pp_as, s->ps_addr, s->ps_orig, sizeof(s->ps_orig), old);
		s->ps_planted = false;
	}
}

static void pid_probe_set(struct pid_probe *pb, bool on)
{
	mutex_lock(&pid_lock);
	if (pid_probe_current(pb)) {
		uint8_t bit = pb->pb_kind == PID_OFFSET ? 2 : pb->pb_kind == PID_RETURN ? 4 : 1;
		bool chain = pb->pb_kind == PID_RETURN || pb->pb_kind == PID_USDT;
		for (struct pid_site *s = pb->pb_sites; s != NULL; s = chain ? s->ps_rnext : NULL)
			pid_site_set(pb->pb_pp, s, bit, on);
	}
	mutex_unlock(&pid_lock);
}

static int pid_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg;
	(void)id;
	pid_probe_set(parg, true);
	return 0;
}

static void pid_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg;
	(void)id;
	pid_probe_set(parg, false);
}

static const dtrace_pops_t pid_pops = {
	.dtps_provide = pid_provide,
	.dtps_enable = pid_enable,
	.dtps_disable = pid_disable,
};

/* Stability: the pid provider's table in the Dynamic Tracing Guide. */
static const dtrace_pattr_t pid_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_args = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
};

/* ---- USDT: probes a program declares (userland/libc/usdt.h) ---- */

/* One record of the sonde_usdt section. */
struct usdt_rec {
	uint64_t ur_addr, ur_kind;
	const char *ur_prov, *ur_name, *ur_regs;
};

/* usdt_str: the NUL-terminated string at *p (before end); advances *p past it. */
static const char *usdt_str(const uint8_t **p, const uint8_t *end)
{
	const char *s = (const char *)*p;

	while (*p < end && **p != 0)
		(*p)++;
	if (*p >= end)
		return NULL;
	(*p)++;
	return s;
}

/* usdt_next: the record at *off of the section [sec, sec + size); false at its end or on garbage. */
static bool usdt_next(const uint8_t *sec, uint64_t size, uint64_t *off, struct usdt_rec *r)
{
	uint64_t o = ALIGN_UP(*off, 8);

	if (o >= size || size - o < 16)
		return false;
	memcpy(&r->ur_addr, sec + o, 8);
	memcpy(&r->ur_kind, sec + o + 8, 8);
	const uint8_t *p = sec + o + 16, *end = sec + size;
	r->ur_prov = usdt_str(&p, end);
	r->ur_name = r->ur_prov ? usdt_str(&p, end) : NULL;
	r->ur_regs = r->ur_name ? usdt_str(&p, end) : NULL;
	*off = (uint64_t)(p - sec);
	return r->ur_regs != NULL && r->ur_kind <= 1;
}

/* usdt_regs: parse "%rbx %rax" (sparc64: "%i0 %g1") into s's argument registers; false if one is unknown. */
static bool usdt_regs(struct pid_site *s, const char *regs)
{
	char name[8];

	s->ps_nargs = 0;
	while (*regs) {
		size_t n = 0;
		while (*regs == ' ')
			regs++;
		while (regs[n] && regs[n] != ' ' && n + 1 < sizeof(name)) {
			name[n] = regs[n];
			n++;
		}
		name[n] = 0;
		regs += n;
		if (n == 0)
			break;
		int idx = sdt_isa_regindex(name);
		if (idx < 0 || s->ps_nargs == USDT_MAXARGS)
			return false;
		s->ps_reg[s->ps_nargs++] = (int8_t)idx;
	}
	return true;
}

/* usdt_name: a probe name as DTrace spells it ("__" -> "-"). */
static void usdt_name(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (; *in && n + 1 < size; in++) {
		out[n++] = *in;
		if (in[0] == '_' && in[1] == '_') {
			out[n - 1] = '-';
			in++;
		}
	}
	out[n] = 0;
}

/* usdt_site: the site of record r (the machine's probe NOP or is-enabled test), or NULL if its bytes are not. */
static struct pid_site *usdt_site(struct pid_proc *pp, const struct usdt_rec *r)
{
	const uint8_t *text = pid_text(pp, r->ur_addr, ARCH_USDT_SITE_LEN);
	struct pid_isa_insn pi;

	if (text == NULL || !pid_isa_usdt(text, r->ur_addr, (int)r->ur_kind, &pi) ||
	    pid_site_find(pp, r->ur_addr) != NULL)
		return NULL;
	struct pid_site *s = pid_site_get(pp, r->ur_addr, 0, &pi);
	if (s == NULL)
		return NULL;
	memcpy(s->ps_orig, text, sizeof(s->ps_orig));
	s->ps_usdt = r->ur_kind ? USDT_IS_ENABLED : USDT_PROBE;
	if (!r->ur_kind && !usdt_regs(s, r->ur_regs))
		s->ps_nargs = 0;
	return s;
}

/* The provider's parg: which process, which provider of its program. */
struct usdt_prov {
	int up_pid;
	char up_name[DTRACE_PROVNAMELEN];    /* as the program spells it: "pidloop" */
	char up_full[DTRACE_PROVNAMELEN];    /* with the pid: "pidloop12" */
};

/* usdt_add: record r's site joins probe mod:func:name of prov (made if new). */
static void usdt_add(dtrace_provider_t *prov, struct pid_proc *pp, const struct usdt_rec *r)
{
	char func[ELF_NAME_MAX], name[DTRACE_NAMELEN];
	uint64_t start;

	if (!elf_func_at(pp->pp_image->kf_data, pp->pp_image->kf_size, r->ur_addr, func,
	                 sizeof(func), &start))
		func[0] = 0;
	usdt_name(r->ur_name, name, sizeof(name));
	dtrace_id_t id = dtrace_probe_lookup(prov, pp->pp_mod, func, name);
	struct pid_probe *pb = id != 0 ? dtrace_probe_arg(id) : NULL;
	if (id != 0 && (pb == NULL || !pid_probe_current(pb)))
		return;                              /* a probe of an earlier image */
	struct pid_site *s = usdt_site(pp, r);
	if (s == NULL)
		return;
	if (pb == NULL) {
		pb = pid_probe_new(pp, PID_USDT, NULL);
		if (pb == NULL || (id = dtrace_probe_create(prov, pp->pp_mod, func, name, 0, pb)) == 0)
			return;
		pb->pb_id = id;
	}
	s->ps_bound = id;
	s->ps_rnext = pb->pb_sites;
	pb->pb_sites = s;
	if (s->ps_rnext != NULL && (s->ps_rnext->ps_on & 1))
		pid_site_set(pp, s, 1, true);        /* a probe already enabled: this site too */
}

/* usdt_provide: every site of one provider of the process's program (made once per image). */
static void usdt_provide(void *arg, const dtrace_probedesc_t *desc)
{
	const struct usdt_prov *up = arg;
	uint64_t off, size, pos = 0;
	struct usdt_rec r;

	if (desc != NULL && desc->dpd_provider[0] && !dtrace_glob_match(desc->dpd_provider, up->up_full))
		return;                              /* NULL: every probe (dtrace -l) */
	dtrace_provider_t *prov = dtrace_provider_find(up->up_full);
	mutex_lock(&pid_lock);
	struct pid_proc *pp = pid_proc_find(up->up_pid);
	if (pp == NULL)
		pp = pid_proc_make(up->up_pid);
	if (pp != NULL && prov != NULL &&
	    elf_section_find(pp->pp_image->kf_data, pp->pp_image->kf_size, "sonde_usdt", &off, &size)) {
		const uint8_t *sec = pp->pp_image->kf_data + off;
		while (usdt_next(sec, size, &pos, &r))
			if (strcmp(r.ur_prov, up->up_name) == 0)
				usdt_add(prov, pp, &r);
	}
	mutex_unlock(&pid_lock);
}

static const dtrace_pops_t usdt_pops = {
	.dtps_provide = usdt_provide,
	.dtps_enable = pid_enable,
	.dtps_disable = pid_disable,
};

/* usdt_declares: does process pid's program have USDT sites of provider name? */
static bool usdt_declares(int pid, const char *name)
{
	struct proc *p = proc_lookup(pid);
	const struct kfile *kf = p != NULL ? p->p_image : NULL;
	uint64_t off, size, pos = 0;
	struct usdt_rec r;

	if (kf == NULL || !elf_section_find(kf->kf_data, kf->kf_size, "sonde_usdt", &off, &size))
		return false;
	while (usdt_next(kf->kf_data + off, size, &pos, &r))
		if (strcmp(r.ur_prov, name) == 0)
			return true;
	return false;
}

/* usdt_meta: register <provider><PID> when d names it and that process's program declares it. */
static void usdt_meta(const char *full)
{
	size_t n = strlen(full), digits = 0;

	while (digits < n && full[n - 1 - digits] >= '0' && full[n - 1 - digits] <= '9')
		digits++;
	if (digits == 0 || digits == n || digits > 9 || n >= DTRACE_PROVNAMELEN)
		return;
	struct usdt_prov *up = kzalloc(sizeof(*up));
	if (up == NULL)
		return;
	memcpy(up->up_name, full, n - digits);
	kstrlcpy(up->up_full, full, sizeof(up->up_full));
	for (const char *c = full + n - digits; *c; c++)
		up->up_pid = up->up_pid * 10 + (*c - '0');
	dtrace_provider_t *prov = usdt_declares(up->up_pid, up->up_name) ?
	                          dtrace_register(full, &usdt_pops, up) : NULL;
	if (prov == NULL)
		kfree(up);
	else {
		dtrace_provider_attr_set(prov, &pid_attr);
		dtrace_provider_aout_set(prov);
	}
}

/*
 * usdt_meta_named: the providers process pid's program declares whose
 * <provider><PID> name matches the glob prov, registered (usdt_meta) if new.
 */
static void usdt_meta_named(int pid, const char *prov)
{
	struct proc *p = proc_lookup(pid);
	const struct kfile *kf = p != NULL ? p->p_image : NULL;
	uint64_t off, size, pos = 0;
	struct usdt_rec r;
	char full[DTRACE_PROVNAMELEN];

	if (kf == NULL || !elf_section_find(kf->kf_data, kf->kf_size, "sonde_usdt", &off, &size))
		return;
	while (usdt_next(kf->kf_data + off, size, &pos, &r)) {
		if (ksnprintf(full, sizeof(full), "%s%d", r.ur_prov, pid) >= (int)sizeof(full))
			continue;
		if (dtrace_glob_match(prov, full) && dtrace_provider_find(full) == NULL)
			usdt_meta(full);
	}
}

/*
 * usdt_meta_all: a description whose provider is empty or a glob (dtrace -l,
 * -l -m PROG, 'pidloop*:::step') sees the USDT providers of every live
 * process whose program matches its module, as DTrace's consumers see every
 * process's USDT providers from the moment it starts.  NULL: every process.
 * A description with neither provider nor module (':::BEGIN') is left out
 * (pid_meta_provide), so that it does not take a slot of every process.
 */
static void usdt_meta_all(const dtrace_probedesc_t *d)
{
	struct proc_info *pi = kmalloc(sizeof(*pi) * PROC_MAX);

	if (pi == NULL)
		return;
	int n = MIN(proc_list(pi, PROC_MAX), PROC_MAX);
	for (int i = 0; i < n; i++)
		if (pi[i].pi_state == 'R' && (d == NULL || dtrace_glob_match(d->dpd_mod, pi[i].pi_execname)))
			usdt_meta_named(pi[i].pi_pid, d != NULL ? d->dpd_provider : "");
	kfree(pi);
}

/* ---- the class of providers ---- */

/* pid_desc_pid: the pid in a provider name "pid123", or 0. */
static int pid_desc_pid(const char *prov)
{
	int pid = 0;

	if (strncmp(prov, "pid", 3) != 0 || prov[3] == 0 || strlen(prov) > 12)
		return 0;
	for (const char *c = prov + 3; *c; c++) {
		if (*c < '0' || *c > '9')
			return 0;
		pid = pid * 10 + (*c - '0');
	}
	return pid;
}

/* pid_meta_provide: register pid<N> when d names it and process N lives.  dtrace_lock held. */
static void pid_meta_provide(const dtrace_probedesc_t *d)
{
	mutex_lock(&pid_lock);
	pid_proc_reap();                         /* probes of processes gone since: out of every match */
	mutex_unlock(&pid_lock);
	if (d == NULL || (d->dpd_id == 0 && (d->dpd_provider[0] != 0 || d->dpd_mod[0] != 0) &&
	                  is_glob(d->dpd_provider)))
		usdt_meta_all(d);                    /* not for ':::BEGIN': no slot per process for it */
	if (d == NULL || d->dpd_id != 0 || dtrace_provider_find(d->dpd_provider) != NULL)
		return;
	int pid = pid_desc_pid(d->dpd_provider);
	if (pid == 0) {
		usdt_meta(d->dpd_provider);          /* <provider><PID>: a USDT provider */
		return;
	}
	if (proc_lookup(pid) == NULL)
		return;
	dtrace_provider_t *prov = dtrace_register(d->dpd_provider, &pid_pops, (void *)(uintptr_t)pid);
	if (prov != NULL) {
		dtrace_provider_attr_set(prov, &pid_attr);
		dtrace_provider_aout_set(prov);
	}
}

/* ---- process events ---- */

/* pid_fork_hook: put back in child's text every byte the parent's probes replaced.  Parent's thread. */
static void pid_fork_hook(struct proc *parent, struct proc *child)
{
	uint8_t old[ARCH_PID_TRAP_LEN];

	mutex_lock(&pid_lock);
	struct pid_proc *pp = pid_proc_find(parent->p_pid);
	for (struct pid_site *s = pp != NULL ? pp->pp_sites : NULL; s != NULL; s = s->ps_all)
		if (s->ps_ever)
			arch_user_text_poke(child->p_as, s->ps_addr, s->ps_orig, sizeof(s->ps_orig), old);
	mutex_unlock(&pid_lock);
}

/* pid_gone_hook: p exits or execs: its slot ends (its address space is about to go).  p's thread. */
static void pid_gone_hook(struct proc *p)
{
	mutex_lock(&pid_lock);
	for (int i = 0; i < PID_PROCS; i++)
		if (pid_procs[i].pp_live && pid_procs[i].pp_pid == p->p_pid)
			__atomic_store_n(&pid_procs[i].pp_live, false, __ATOMIC_RELEASE);
	mutex_unlock(&pid_lock);
}

/* pid_prov_init: the class of pid providers and the process hooks.  Boot. */
void pid_prov_init(void)
{
	proc_pid_fork_hook = pid_fork_hook;
	proc_pid_gone_hook = pid_gone_hook;
	dtrace_provide_meta = pid_meta_provide;
}
