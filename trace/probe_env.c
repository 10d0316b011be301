/*
 * probe_env.c - the DIF machine's view of a firing: memory, stacks and
 * built-in variables.
 *
 * A clause's DIF reaches the world only through dtrace_dif_env's
 * callbacks (dif/dif.h): loads from kernel or user memory, each checked
 * (mem_probe: is the address mapped?) and read with a fault-catching copy,
 * so a bad pointer is a fault the clause reports, never a trap; copyout's
 * store into the current process; and the built-in variables, read from
 * the firing state (trace/probe_impl.h's dtrace_firing[cpu]) and the
 * current thread.  The string built-ins (execname, probefunc ...) hand
 * out the address of the framework's own copy and vouch for it to the DIF
 * machine (dif_state_own, for the clause): compares, copies and keys read
 * it in place.  Any other string (arg0, copyinstr's, a pointer the
 * program computes) keeps the checked loads, checked once per page when
 * copied into a record or key (str_copy).
 *
 * Stacks.  stack(), caller and stackdepth walk from the frame
 * dtrace_probe_frame was given, or, for dtrace_probe(), from here, less
 * the leading frames in the framework's own text (found by address).  A
 * firing in user code has none (ustack is pid_isa.h's).
 *
 * Context: probe context (interrupts off, no sleeping, no locks).
 *
 * Tests: self-tests trace_* (tests/kernel/trace_selftest.c); tests/d/variables,
 *        tests/d/strings, tests/d/faults (bad addresses), tests/d/fbt (stacks)
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/pid_isa.h"
#include "kernel/proc.h"
#include "trace/probe_impl.h"

/* ---- memory ---- */

/*
 * kernel_page_ok: mem_probe(addr, size), asked once per page per clause: a
 * string read byte by byte through dtrace_load (a compare, strlen, a copy
 * of a string the program names) pays the page walk once, not per byte.
 * The page's answer cannot go stale within the clause in a way that
 * matters: RAM stays RAM, and a page another CPU unmaps meanwhile is a
 * fault arch_safe_read catches.  The cache (df_okpage) is reset by
 * dif_prepare; a load within one page only (aligned loads always are).
 */
static bool kernel_page_ok(uint64_t addr, unsigned size)
{
	dtrace_firing_t *f = &dtrace_firing[arch_cpu_id()];
	uint64_t page = addr & ~(uint64_t)(PAGE_SIZE - 1);

	if ((addr & (PAGE_SIZE - 1)) + size > PAGE_SIZE)
		return mem_probe(addr, size);
	if (f->df_okpage == (page | 1))
		return true;
	if (!mem_probe(addr, size))
		return false;
	f->df_okpage = page | 1;
	return true;
}

int dtrace_load(void *ctx, uint64_t addr, unsigned size, unsigned space, uint64_t *val)
{
	uint8_t b[8];

	(void)ctx;
	if (size > sizeof(b))
		return DIF_FAULT_BADADDR;
	if (space == DIF_SPACE_USER) {                  /* the current process's memory, never paged in */
		if (!arch_user_probe(addr, size) || arch_safe_read(b, (const void *)addr, size) != 0)
			return DIF_FAULT_BADADDR;
		*val = dif_value_at(b, size);
		return 0;
	}
	if (space != DIF_SPACE_KERNEL)
		return DIF_FAULT_UPRIV;
	if (!kernel_page_ok(addr, size) || arch_safe_read(b, (const void *)addr, size) != 0)
		return DIF_FAULT_BADADDR;
	*val = dif_value_at(b, size);
	return 0;
}

/* dtrace_ustore: copyout/copyoutstr into the current process (destructive; DIF checks -w). */
static int dtrace_ustore(void *ctx, uint64_t uaddr, const void *src, size_t n)
{
	(void)ctx;
	return arch_user_store(uaddr, src, n) == 0 ? 0 : DIF_FAULT_BADADDR;
}

/*
 * str_zero: after a copied string of n characters in a size-byte field:
 * the NUL, then zeros, to the end of the field, or for an aggregation key
 * (key) only to the end of the NUL's 8-byte word (agg.c's "String keys in
 * place": the words after it are never hashed nor compared, and the
 * stored entry is zeroed at insert), instead of memset to strsize.
 */
static size_t str_zero(char *dst, size_t n, size_t size, bool key)
{
	size_t end = key ? ALIGN_UP(n + 1, 8) : size;

	for (size_t i = n; i < end; i++)
		dst[i] = 0;
	return n;
}

/*
 * str_copy: the string at src into dst (size bytes, size >= 1), at most
 * size - 1 characters.  The first span bytes (dif_inplace_span: memory DIF
 * itself reads in place) are read with plain loads; anything else is
 * checked once per page (mem_probe) and read through arch_safe_read.
 * Returns the length, or SIZE_MAX if src cannot be read.
 */
static size_t str_copy(char *dst, uint64_t src, size_t size, uint64_t span, bool key)
{
	const char *s = (const char *)src;
	size_t n = 0, lim = size - 1;

	size_t m = span < lim ? span : lim;
	for (uint64_t w; n + 8 <= m; n += 8) {      /* a word at a time while no byte is NUL */
		memcpy(&w, s + n, 8);
		if (((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) != 0)
			break;
		memcpy(dst + n, &w, 8);
	}
	for (; n < m; n++) {
		if (s[n] == 0)
			return str_zero(dst, n, size, key);
		dst[n] = s[n];
	}
	while (n < lim) {
		if ((n == 0 || ((src + n) & (PAGE_SIZE - 1)) == 0 || n == span) && !mem_probe(src + n, 1))
			return SIZE_MAX;
		char c;
		if (arch_safe_read(&c, (const void *)(src + n), 1) != 0)
			return SIZE_MAX;
		if (c == 0)
			break;
		dst[n++] = c;
	}
	return str_zero(dst, n, size, key);
}

/*
 * dtrace_strcpy_safe: copy the string at src into dst (size bytes, always
 * terminated, the rest zeroed).  Returns the length, or SIZE_MAX if src
 * cannot be read.  Probe context.
 */
size_t dtrace_strcpy_safe(char *dst, uint64_t src, size_t size)
{
	if (size == 0)
		return 0;
	return str_copy(dst, src, size, 0, false);
}

size_t dtrace_strcpy_dif(char *dst, uint64_t src, size_t size, const dif_state_t *st,
                         const dif_difo_t *dp, bool key)
{
	if (size == 0)
		return 0;
	return str_copy(dst, src, size, dif_inplace_span(st, dp, src), key);
}

/* ---- stacks ---- */

/*
 * The framework's own code: dif/ and trace/ (the firing loop, the actions,
 * and every provider's firing stub, all in trace/prov_*.c) and the JIT's
 * area, one range of the image (linker.ld).  stack() never shows a frame
 * there.
 */
extern char __dtrace_text_start[], __dtrace_text_end[];

static bool framework_pc(uint64_t pc)
{
	return pc >= (uint64_t)__dtrace_text_start && pc < (uint64_t)__dtrace_text_end;
}

#define STACK_FRAMEWORK_MAX 64   /* framework frames above a probe site, at most (a bad chain ends) */

/*
 * stack_walk_here: the stack of a firing from dtrace_probe(), which has no
 * frame to start from: this very call chain, less its leading frames in
 * the framework's text (this walk, the actions, the firing loop,
 * dtrace_probe, the provider's stub), found by address, so it holds however
 * gcc inlined or tail-called them.  The first PC outside is the probe site
 * (xcall+0x6e for sysinfo:::xcalls); the provider's aframes come off after.
 */
static int stack_walk_here(uint64_t *pcs, int max)
{
	uint64_t fp = arch_frame_here();
	uint64_t ret = arch_frame_step(&fp);
	int n = 0;

	for (int i = 0; ret != 0 && framework_pc(ret) && i < STACK_FRAMEWORK_MAX; i++)
		ret = arch_frame_step(&fp);
	if (framework_pc(ret))
		return 0;
	for (; ret != 0 && n < max; ret = arch_frame_step(&fp))
		pcs[n++] = ret;
	return n;
}

/*
 * dtrace_stack_walk: the probed code's PC, then its callers: from the frame the
 * provider set (dtrace_probe_frame), from here (dtrace_probe), or none for
 * a firing in user code (dtrace_probe_user: pid, a profile sample taken in
 * user mode).
 */
int dtrace_stack_walk(dtrace_firing_t *f, uint64_t *pcs, int max)
{
	int n = 0;
	uint64_t fp = f->df_frame_fp;

	if (f->df_frame_user)
		return 0;
	if (f->df_frame_pc == 0)
		return stack_walk_here(pcs, max);
	pcs[n++] = f->df_frame_pc;
	if (f->df_frame_ret != NULL && n < max) {    /* at a boundary: the caller, then its frame */
		uint64_t ret = *f->df_frame_ret;
		if (ret == 0)
			return n;
		pcs[n++] = ret;
	}
	uint64_t ret;
	while (n < max && (ret = arch_frame_step(&fp)) != 0)    /* the machine's frame layout */
		pcs[n++] = ret;
	return n;
}

/* ---- built-in variables ---- */

/* firing_time: timestamp, read once per firing and only if asked for. */
static uint64_t firing_time(dtrace_firing_t *f)
{
	if (f->df_timestamp == 0)
		f->df_timestamp = ktime_ns();
	return f->df_timestamp;
}

/*
 * builtin_owned: a string built-in in the framework's own memory (the
 * probe's names, live while the ECB is; the thread's name, a fixed array
 * always terminated): vouched for to the DIF machine (dif_state_own), so
 * compares, copies and keys read it in place.  Only for these: a pointer
 * a program computes keeps the checked loads and their faults.
 */
static int builtin_owned(dtrace_firing_t *f, const char *s, size_t len, uint64_t *val)
{
	*val = (uint64_t)s;
	if (s != NULL)
		dif_state_own(&f->df_dif, (uint64_t)s, len);
	return 0;
}

static int builtin_name(dtrace_firing_t *f, const char *s, uint64_t *val)
{
	return builtin_owned(f, s, s != NULL ? strlen(s) + 1 : 0, val);
}

uint32_t dtrace_vtime_active;

/*
 * thread_vtime: DTrace's vtimestamp: the time t has run on a CPU, less the
 * time spent in probe processing: up to the start of this firing (so every
 * read in one firing gives the same value), less what earlier firings
 * charged to t.
 */
static uint64_t thread_vtime(const dtrace_firing_t *f, struct thread *t)
{
	uint64_t now = f->df_vstart != 0 ? f->df_vstart : ktime_ns();
	uint64_t ran = t->t_cputime + (now > t->t_oncpu_at ? now - t->t_oncpu_at : 0);

	return ran > t->t_dtrace_vtime ? ran - t->t_dtrace_vtime : 0;
}

static int dtrace_builtin(void *ctx, uint32_t id, uint64_t index, uint64_t *val)
{
	dtrace_firing_t *f = &dtrace_firing[arch_cpu_id()];
	dtrace_probe_t *p = f->df_probe;
	uint64_t pcs[2];

	(void)ctx;
	(void)index;
	switch (id) {                        /* the probe's names need no thread */
	case DIF_VAR_PROBEPROV: return builtin_name(f, p->dtpr_provider->dtpv_name, val);
	case DIF_VAR_PROBEMOD: return builtin_name(f, p->dtpr_mod, val);
	case DIF_VAR_PROBEFUNC: return builtin_name(f, p->dtpr_func, val);
	case DIF_VAR_PROBENAME: return builtin_name(f, p->dtpr_name, val);
	default: break;
	}
	struct thread *t = curthread();
	switch (id) {
	case DIF_VAR_EXECNAME: return builtin_owned(f, t->t_name, sizeof(t->t_name), val);
	case DIF_VAR_TIMESTAMP: *val = firing_time(f); return 0;
	case DIF_VAR_WALLTIMESTAMP: *val = ktime_wall_ns(firing_time(f)); return 0;
	case DIF_VAR_VTIMESTAMP: *val = thread_vtime(f, t); return 0;
	case DIF_VAR_CPU: *val = (uint64_t)arch_cpu_id(); return 0;
	case DIF_VAR_CURTHREAD: *val = (uint64_t)t; return 0;
	case DIF_VAR_CURCPU: *val = (uint64_t)curcpu(); return 0;
	case DIF_VAR_TID: *val = t->t_tid; return 0;
	case DIF_VAR_PID:                    /* a process's, or a consumer's own (thread_set_process) */
		*val = t->t_proc != NULL ? (uint64_t)t->t_proc->p_pid : t->t_pid;
		return 0;
	case DIF_VAR_PPID: *val = t->t_proc != NULL ? (uint64_t)t->t_proc->p_ppid : 0; return 0;
	case DIF_VAR_ERRNO: *val = (uint64_t)t->t_errno; return 0;
	case DIF_VAR_UID:                    /* the real ids; a kernel thread (the console) is root */
		*val = t->t_proc != NULL ? t->t_proc->p_cred.cr_ruid : 0;
		return 0;
	case DIF_VAR_GID:
		*val = t->t_proc != NULL ? t->t_proc->p_cred.cr_rgid : 0;
		return 0;
	case DIF_VAR_IPL:
		*val = 0;
		return 0;
	case DIF_VAR_UREGS:                  /* the process's registers (pid_isa.h) */
		return pid_isa_uregs(index, val) ? 0 : DIF_FAULT_ILLOP;
	case DIF_VAR_UCALLER:
		*val = pid_isa_ustack(pcs, 2) == 2 ? pcs[1] : 0;
		return 0;
	case DIF_VAR_USTACKDEPTH: {
		uint64_t deep[64];
		*val = (uint64_t)pid_isa_ustack(deep, 64);
		return 0;
	}
	case DIF_VAR_ID: *val = p->dtpr_id; return 0;
	case DIF_VAR_EPID: *val = f->df_ecb ? f->df_ecb->dte_epid : 0; return 0;
	case DIF_VAR_CALLER: *val = dtrace_stack_walk(f, pcs, 2) == 2 ? pcs[1] : 0; return 0;
	case DIF_VAR_STACKDEPTH: {
		uint64_t deep[64];
		*val = (uint64_t)dtrace_stack_walk(f, deep, 64);
		return 0;
	}
	default:
		return DIF_FAULT_ILLOP;
	}
}

/* The callbacks DIF runs with in every clause (dif/dif.h). */
const dif_env_t dtrace_dif_env = {
	.de_ctx = NULL,
	.de_load = dtrace_load,
	.de_ustore = dtrace_ustore,
	.de_builtin = dtrace_builtin,
	.de_var_load = dtrace_var_load,
	.de_var_store = dtrace_var_store,
	.de_speculation = dtrace_speculation,
	.de_lock = dtrace_lockinfo,
	.de_bag = dtrace_bag,
};
