/*
 * vm_user.c - user mode on sparc64: address spaces in MMU contexts, the
 * system call trap, copies to and from user memory, copy-on-write fork,
 * user faults, and the user windows the trap path could not spill.
 *
 * Address spaces.  Each space has a context number of its own (1..8191,
 * a bitmap), loaded into the primary context register while one of its
 * threads runs (or lazily after, as on x86_64: a kernel thread keeps what
 * is loaded).  Its pages are in a three-level table of 8 KiB pages, 1024
 * entries each (va bits 42..33, 32..23, 22..13: the 43-bit user half);
 * the upper levels hold the physical address of the next table, a leaf
 * holds the TTE itself: valid, cacheable, not privileged, W if writable,
 * and two software bits (TTE bits 12..7 are the system's): X (the I-MMU
 * may map it: traps.S's miss handler checks) and COW.  traps.S's USER_TTE
 * walks the table on a TLB miss in the loaded context and inserts the TTE
 * as it is.  Every kernel translation is global (G), so the kernel sees
 * itself in any context and runs with the process's context loaded; it
 * reaches user memory with ordinary loads and stores (the user's TTEs are
 * not privileged), in user_copy and user_strcpy, whose accesses are in
 * the exception table.  The kernel image's range [0x40000000, its end)
 * lies inside the user half but is never a user page (va_user_page).
 * Unmapping demaps the context's entries through the secondary context
 * register (one CPU: no cross-call).  The context number is freed with
 * its space, after a context demap.
 *
 * Traps from user mode (traps.S, trap_generic): the frame is at the top of
 * the thread's kernel stack (mp_kstack, set on every switch to a user
 * thread), and the user's windows are already on the user's stack, or in
 * mp_wbuf when their spill faulted; sparc64_user_trap copies those out
 * first (a fault there kills the process), then: a system call (`ta 0x6d`:
 * number in %g1, arguments in %o0..%o5, result in %o0, -errno on
 * failure), an interrupt, a copy-on-write fault, or a fault that kills the
 * process with a signal (proc_fault, as on x86_64).  A user window's fill
 * that faults (traps.S) kills it too, through sparc64_user_window_fault.
 *
 * FPU: a user thread's floating-point registers and %fsr are saved and
 * loaded at each switch (arch_thread_switch: the kernel computes with the
 * FPU too, for D's float formatting, but only in kernel threads), and at
 * fork and exec.
 *
 * The pid provider (pid_isa.c): its traps (`ta 0x71` at a site, `ta 0x72`
 * after a return's delay slot) go to pid_isa_trap; arch_user_text_poke
 * writes a site's word into the process's own copy of the page, and
 * sparc64_user_scratch makes the page where instructions run out of line.
 *
 * Not here: register windows are not cleaned between the kernel and user
 * mode (CLEANWIN stays at its maximum: a new user window may hold kernel
 * values).
 *
 * Tests: tests/e2e/test_sparc64_user.py (make sparc64-user-check)
 */
#include "arch/arch.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/boot.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/pid_isa.h"
#include "kernel/proc.h"
#include "kernel/thread.h"

#define TTE_V       (1UL << 63)
#define TTE_PA      0x000001ffffffe000UL
#define TTE_CP      0x20UL
#define TTE_CV      0x10UL
#define TTE_W       0x02UL
#define TTE_SOFT_X  0x80UL             /* traps.S: TTE_SOFT_X */
#define TTE_SOFT_COW 0x100UL           /* writable once private */
#define LVL_SLOTS   1024
#define CTX_MAX     8192

#define TSTATE_PRIV 0x400UL
#define TSTATE_USER ((0x80UL << 24) | (0x12UL << 8))   /* %asi ASI_PRIMARY; PSTATE PEF | IE */
#define WINDOW_SAVE 176                /* a frame's register save area and argument dump */

#define TT_SYSCALL  (0x100 + 0x6d)
#define TT_PROBE    (0x100 + 0x70)
#define TT_PID      (0x100 + 0x71)     /* ta 0x71: a pid probe's site (ARCH_PID_TRAP) */
#define TT_PID_RET  (0x100 + 0x72)     /* ta 0x72: after a return's delay slot (pid_isa.c) */

struct arch_as {
	uint64_t as_root;            /* physical address of the top table */
	uint64_t as_ctx;             /* the MMU context */
};

static struct arch_as *as_loaded;         /* what the context register holds (NULL: context 0) */
static uint64_t ctx_used[CTX_MAX / 64];   /* context numbers in use; 0 is the kernel's */
static spinlock_t ctx_lock = SPINLOCK_INIT("ctx");
static uint64_t user_pages;               /* pages held by every space: tables and leaves */

int sparc64_user_copy(void *dst, const void *src, size_t len);        /* traps.S */
long sparc64_user_strcpy(char *dst, const char *src, size_t max);
void sparc64_user_return(struct trap_frame *tf) __attribute__((noreturn));

static void pages_add(int64_t n) { __atomic_add_fetch(&user_pages, (uint64_t)n, __ATOMIC_RELAXED); }
uint64_t arch_user_pages(void) { return __atomic_load_n(&user_pages, __ATOMIC_RELAXED); }

static inline __attribute__((always_inline)) int lvl_index(uint64_t va, int level)
{
	return (int)((va >> (13 + 10 * level)) & (LVL_SLOTS - 1));
}

static inline __attribute__((always_inline)) uint64_t *table_va(uint64_t pa)
{
	return phys_to_virt(pa & TTE_PA);
}

/* --- the MMU: contexts and demaps ---------------------------------------------- */

static void mmu_context_set(uint64_t reg, uint64_t ctx)
{
	__asm__ volatile("stxa %0, [%1] 0x58; membar #Sync" :: "r"(ctx), "r"(reg) : "memory");
}

/* tlb_demap_secondary: demap (op: a page's va, or 0x40 for the whole context) in context ctx, both MMUs. */
static void tlb_demap_secondary(uint64_t ctx, uint64_t op)
{
	uint64_t flags = arch_irq_save();

	mmu_context_set(0x10, ctx);
	__asm__ volatile("stxa %%g0, [%0] 0x5f; stxa %%g0, [%0] 0x57; membar #Sync; flush %%g0"
	                 :: "r"(op | 0x10) : "memory");
	arch_irq_restore(flags);
}

static uint64_t ctx_alloc(void)
{
	uint64_t ctx = 0;

	spin_lock(&ctx_lock);
	for (uint64_t c = 1; c < CTX_MAX && ctx == 0; c++)
		if (!(ctx_used[c / 64] & (1UL << (c % 64)))) {
			ctx_used[c / 64] |= 1UL << (c % 64);
			ctx = c;
		}
	spin_unlock(&ctx_lock);
	return ctx;
}

static void ctx_free(uint64_t ctx)
{
	tlb_demap_secondary(ctx, 0x40);
	spin_lock(&ctx_lock);
	ctx_used[ctx / 64] &= ~(1UL << (ctx % 64));
	spin_unlock(&ctx_lock);
}

void arch_as_activate(struct arch_as *as)
{
	if (as == as_loaded)
		return;
	as_loaded = as;
	sparc64_mmu_page.mp_user_ctx = 0;                  /* no miss walks a half-set table */
	sparc64_mmu_page.mp_user_root = as != NULL ? as->as_root : 0;
	sparc64_mmu_page.mp_user_ctx = as != NULL ? as->as_ctx : 0;
	mmu_context_set(0x8, as != NULL ? as->as_ctx : 0);
}

struct arch_as *arch_as_current(void) { return as_loaded; }
uint64_t arch_as_cpus(struct arch_as *as) { return as != NULL && as == as_loaded ? 1 : 0; }

void arch_as_flush(struct arch_as *as, uint64_t lo, uint64_t hi)
{
	if (hi - lo > 64 * PAGE_SIZE) {
		tlb_demap_secondary(as->as_ctx, 0x40);
		return;
	}
	for (uint64_t va = ALIGN_DOWN(lo, PAGE_SIZE); va < hi; va += PAGE_SIZE)
		tlb_demap_secondary(as->as_ctx, va);
}

/* --- address spaces ------------------------------------------------------------ */

struct arch_as *arch_as_create(void)
{
	struct arch_as *as = kzalloc(sizeof(*as));
	void *root = as != NULL ? page_alloc() : NULL;

	page_ref_init();
	if (root != NULL)
		as->as_ctx = ctx_alloc();
	if (root == NULL || as->as_ctx == 0) {
		if (root != NULL)
			page_free(root);
		kfree(as);
		return NULL;
	}
	memset(root, 0, PAGE_SIZE);
	as->as_root = virt_to_phys(root);
	pages_add(1);
	return as;
}

/* as_leaf: the TTE slot of user address va, making tables if create. */
static uint64_t *as_leaf(struct arch_as *as, uint64_t va, bool create)
{
	uint64_t *table = table_va(as->as_root);

	for (int level = 2; level > 0; level--) {
		uint64_t *e = &table[lvl_index(va, level)];
		if (*e == 0) {
			void *page = create ? page_alloc() : NULL;
			if (page == NULL)
				return NULL;
			memset(page, 0, PAGE_SIZE);
			pages_add(1);
			*e = virt_to_phys(page);
		}
		table = table_va(*e);
	}
	return &table[lvl_index(va, 0)];
}

#define IMAGE_BASE 0x40000000UL           /* the kernel image, inside the user half (machine.h) */

/* image_end: the first page above the kernel image.  Inline (probe context: user_mapped). */
static inline __attribute__((always_inline)) uint64_t image_end(void)
{
	extern char _kernel_end[];

	return ALIGN_UP((uint64_t)_kernel_end, PAGE_SIZE);
}

static inline __attribute__((always_inline)) bool va_user_page(uint64_t va)
{
	if ((va & (PAGE_SIZE - 1)) != 0 || va < ARCH_USER_BASE || va >= ARCH_USER_TOP)
		return false;
	return va < IMAGE_BASE || va >= image_end();
}

bool arch_as_map(struct arch_as *as, uint64_t va, void *page, int prot)
{
	if (!va_user_page(va) || ((prot & ARCH_PROT_WRITE) && (prot & ARCH_PROT_EXEC)))
		return false;
	uint64_t *e = as_leaf(as, va, true);
	if (e == NULL || (*e & TTE_V))
		return false;
	*e = TTE_V | virt_to_phys(page) | TTE_CP | TTE_CV | (prot & ARCH_PROT_WRITE ? TTE_W : 0) |
	     (prot & ARCH_PROT_EXEC ? TTE_SOFT_X : 0);
	pages_add(1);
	return true;
}

void *arch_as_unmap(struct arch_as *as, uint64_t va)
{
	uint64_t *e = va_user_page(va) ? as_leaf(as, va, false) : NULL;

	if (e == NULL || !(*e & TTE_V))
		return NULL;
	uint64_t old = __atomic_exchange_n(e, 0, __ATOMIC_SEQ_CST);
	tlb_demap_secondary(as->as_ctx, va);
	return table_va(old);
}

void *arch_as_page(struct arch_as *as, uint64_t va)
{
	uint64_t *e = va < ARCH_USER_TOP ? as_leaf(as, ALIGN_DOWN(va, PAGE_SIZE), false) : NULL;

	return e != NULL && (*e & TTE_V) ? table_va(*e) : NULL;
}

/* as_walk: count the pages under table (level 0: leaves); if free, give them back and free the tables. */
static uint64_t as_walk(uint64_t *table, int level, bool free)
{
	uint64_t n = 0;

	for (int i = 0; i < LVL_SLOTS; i++) {
		if (table[i] == 0 || (level == 0 && !(table[i] & TTE_V)))
			continue;
		if (level > 0) {
			n += as_walk(table_va(table[i]), level - 1, free) + 1;
			if (free)
				page_free(table_va(table[i]));
		} else if (free) {
			arch_as_page_put(table_va(table[i]));   /* counts itself */
		} else {
			n++;
		}
	}
	return n;
}

uint64_t arch_as_pages(struct arch_as *as) { return 1 + as_walk(table_va(as->as_root), 2, false); }

void arch_as_destroy(struct arch_as *as)
{
	if (as == NULL)
		return;
	uint64_t flags = arch_irq_save();
	if (as_loaded == as)
		arch_as_activate(NULL);
	arch_irq_restore(flags);
	uint64_t tables = 1;
	for (int i = 0; i < LVL_SLOTS; i++) {          /* the tables, counted before they go */
		uint64_t top = table_va(as->as_root)[i];
		if (top == 0)
			continue;
		tables++;
		for (int j = 0; j < LVL_SLOTS; j++)
			tables += table_va(top)[j] != 0;
	}
	as_walk(table_va(as->as_root), 2, true);
	page_free(table_va(as->as_root));
	pages_add(-(int64_t)tables);
	ctx_free(as->as_ctx);
	kfree(as);
}

uint64_t arch_as_next(struct arch_as *as, uint64_t va, uint64_t hi)
{
	hi = MIN(hi, ARCH_USER_TOP);
	while (va < hi) {
		const uint64_t *table = table_va(as->as_root);
		int level = 2;
		for (; level >= 0; level--) {
			uint64_t e = table[lvl_index(va, level)];
			if (e == 0 || (level == 0 && !(e & TTE_V)))
				break;
			if (level == 0)
				return va;
			table = table_va(e);
		}
		uint64_t span = 1UL << (13 + 10 * level);
		va = ALIGN_DOWN(va, span) + span;
	}
	return hi;
}

/* copy_leaf: fork's share (copy-on-write) or copy of one leaf of src into dst. */
static bool copy_leaf(struct arch_as *dst, uint64_t va, uint64_t *src, bool cow)
{
	uint64_t *e = as_leaf(dst, va, true);

	if (e == NULL)
		return false;
	if (cow) {
		uint64_t tte = *src;
		if (tte & TTE_W)
			tte = (tte & ~TTE_W) | TTE_SOFT_COW;
		*src = tte;
		page_ref_get(table_va(tte));
		*e = tte;
		return true;
	}
	void *page = page_alloc();
	if (page == NULL)
		return false;
	memcpy(page, table_va(*src), PAGE_SIZE);
	*e = virt_to_phys(page) | (*src & ~TTE_PA);
	pages_add(1);
	return true;
}


struct arch_as *arch_as_copy(struct arch_as *src)
{
	struct arch_as *as = arch_as_create();
	bool ok = as != NULL, cow = page_ref_enabled();

	for (uint64_t va = ok ? arch_as_next(src, 0, ARCH_USER_TOP) : ARCH_USER_TOP; va < ARCH_USER_TOP;
	     va = arch_as_next(src, va + PAGE_SIZE, ARCH_USER_TOP))
		if (!(ok = copy_leaf(as, va, as_leaf(src, va, false), cow)))
			break;
	if (as != NULL && cow)
		tlb_demap_secondary(src->as_ctx, 0x40);   /* its writable pages became read-only */
	if (as != NULL && !ok) {
		arch_as_destroy(as);
		return NULL;
	}
	return as;
}

/*
 * arch_as_page_private: the page at va made as's own (copied if shared),
 * with the same permissions (and writable if it was copy-on-write and
 * make_writable).  NULL if nothing is mapped or memory is short.
 */
static void *page_private(struct arch_as *as, uint64_t va, bool make_writable)
{
	uint64_t *e = va < ARCH_USER_TOP ? as_leaf(as, ALIGN_DOWN(va, PAGE_SIZE), false) : NULL;

	if (e == NULL || !(*e & TTE_V))
		return NULL;
	uint64_t old = *e, tte = old;
	void *page = table_va(old);
	if (page_ref_shared(page)) {
		void *copy = page_alloc();
		if (copy == NULL)
			return NULL;
		memcpy(copy, page, PAGE_SIZE);
		tte = (tte & ~TTE_PA) | virt_to_phys(copy);
		pages_add(1);
		arch_as_page_put(page);          /* another space still holds it */
	}
	if (make_writable && (tte & TTE_SOFT_COW))
		tte = (tte & ~TTE_SOFT_COW) | TTE_W;
	*e = tte;
	tlb_demap_secondary(as->as_ctx, ALIGN_DOWN(va, PAGE_SIZE));
	return table_va(tte);
}

void *arch_as_page_private(struct arch_as *as, uint64_t va) { return page_private(as, va, false); }

/* cow_fault: a write to a copy-on-write page of the running space (either mode); true: retry. */
static bool cow_fault(struct trap_frame *tf)
{
	struct thread *t = curthread();
	uint64_t va = tf->tf_sfar;

	if (tf->tf_tt != 0x6c || va >= ARCH_USER_TOP || t->t_as == NULL || t->t_as != as_loaded)
		return false;
	uint64_t *e = as_leaf(t->t_as, ALIGN_DOWN(va, PAGE_SIZE), false);
	if (e == NULL || !(*e & TTE_V) || !(*e & (TTE_SOFT_COW | TTE_W)))
		return false;
	if (*e & TTE_W) {                            /* made writable meanwhile: a stale entry */
		tlb_demap_secondary(t->t_as->as_ctx, ALIGN_DOWN(va, PAGE_SIZE));
		return true;
	}
	bool shared = page_ref_shared(table_va(*e));    /* only this thread changes its leaves */
	if (page_private(t->t_as, va, true) == NULL)
		return false;
	VMINFO_ADD(cow_fault, shared ? 1 : 0);          /* the pages the copy-on-write made */
	return true;
}

/*
 * sparc64_user_fault_count: a fault on a user address that was not
 * copy-on-write (trap type tt, from either mode): vminfo's prot_fault for a
 * protection trap (the page is mapped), as_fault for an MMU miss that the
 * miss handler could not fill (nothing mapped there).
 */
void sparc64_user_fault_count(uint64_t tt)
{
	if (tt == 0x6c)
		VMINFO_ADD(prot_fault, 1);
	else if (tt == 0x64 || tt == 0x68)
		VMINFO_ADD(as_fault, 1);
}

/* --- the pid provider's access to user text (pid_isa.c, trace/prov_pid.c) ------ */

/*
 * arch_user_text_poke: write the aligned word b (len 4: the pid trap, or the
 * instruction it displaced) at user text address va of as, in one store
 * through the direct map's alias of the page, then flush it; the word it
 * held to old.  false unless va is mapped executable.  A page fork left
 * shared is made as's own first (page_private), so the word never reaches
 * another process.  Thread context; the caller serialises.
 */
bool arch_user_text_poke(struct arch_as *as, uint64_t va, const uint8_t *b, size_t len, uint8_t *old)
{
	uint64_t *e = va < ARCH_USER_TOP && (va & 3) == 0 && len == 4 ?
	              as_leaf(as, ALIGN_DOWN(va, PAGE_SIZE), false) : NULL;

	if (e == NULL || !(*e & TTE_V) || !(*e & TTE_SOFT_X))
		return false;
	uint8_t *page = page_private(as, va, false);
	if (page == NULL)
		return false;                             /* memory short: the probe is not planted */
	volatile uint32_t *p = (volatile uint32_t *)(page + (va & (PAGE_SIZE - 1)));
	uint32_t w, was = *p;
	memcpy(&w, b, 4);
	memcpy(old, &was, 4);
	*p = w;
	__asm__ volatile("flush %0" :: "r"(p) : "memory");
	return true;
}

/*
 * sparc64_user_scratch: the kernel's address of the process's out-of-line
 * page at user address va in as (user read and execute, written through the
 * direct map); made if create and nothing is mapped there (interrupts on).
 * A page fork left shared with another process is not handed out until
 * create makes it this one's own (two traced processes must not write one
 * slot).  NULL if va holds any other page, or memory is short.  The
 * process's own thread (pid_isa.c).
 */
void *sparc64_user_scratch(struct arch_as *as, uint64_t va, bool create)
{
	uint64_t *e = as_leaf(as, va, false);

	if (e != NULL && (*e & TTE_V)) {
		if ((*e & (TTE_W | TTE_SOFT_X | TTE_SOFT_COW)) != TTE_SOFT_X)
			return NULL;
		if (!page_ref_shared(table_va(*e)))
			return table_va(*e);
		return create ? page_private(as, va, false) : NULL;   /* fork shared it: a copy of our own */
	}
	if (!create)
		return NULL;
	void *page = page_alloc();
	if (page == NULL)
		return NULL;
	memset(page, 0, PAGE_SIZE);                  /* illtrap 0 everywhere */
	if (!arch_as_map(as, va, page, ARCH_PROT_EXEC)) {
		page_free(page);
		return NULL;
	}
	return page;
}

/* --- copies ---------------------------------------------------------------------- */

/* user_mapped: are [va, va + len) mapped here (want: TTE_W or 0) in the running thread's own space?  Probe context. */
static inline __attribute__((always_inline)) bool user_mapped(uint64_t va, size_t len, uint64_t want)
{
	struct arch_as *as = curcpu()->cpu_thread->t_as;

	if (len == 0 || va >= ARCH_USER_TOP || len > ARCH_USER_TOP - va || as == NULL || as != as_loaded)
		return false;
	for (uint64_t p = ALIGN_DOWN(va, PAGE_SIZE); p < va + len; p += PAGE_SIZE) {
		const uint64_t *table = table_va(as->as_root);
		uint64_t e = 0;
		for (int level = 2; level >= 0; level--) {
			e = table[lvl_index(p, level)];
			if (e == 0)
				return false;
			table = table_va(e);
		}
		if (!(e & TTE_V) || (e & want) != want || !va_user_page(p))
			return false;
	}
	return true;
}

NOTRACE bool arch_user_probe(uint64_t va, size_t len) { return user_mapped(va, len, 0); }

NOTRACE int arch_user_store(uint64_t udst, const void *src, size_t len)
{
	if (!user_mapped(udst, len, TTE_W))
		return -1;
	return sparc64_user_copy((void *)udst, src, len);
}

/* user_range: [va, va + len) in the user half and clear of the kernel image (whose pages the kernel may write). */
static bool user_range(uint64_t va, size_t len)
{
	if (va >= ARCH_USER_TOP || len > ARCH_USER_TOP - va)
		return false;
	return len == 0 || va + len <= IMAGE_BASE || va >= image_end();
}

int arch_copyin(void *dst, uint64_t usrc, size_t len)
{
	if (!user_range(usrc, len))
		return -1;
	return sparc64_user_copy(dst, (const void *)usrc, len);
}

int arch_copyout(uint64_t udst, const void *src, size_t len)
{
	if (!user_range(udst, len))
		return -1;
	return sparc64_user_copy((void *)udst, src, len);
}

long arch_copyinstr(char *dst, uint64_t usrc, size_t max)
{
	if (usrc >= ARCH_USER_TOP || (usrc >= IMAGE_BASE && usrc < image_end()))
		return -1;
	size_t room = MIN(max, (usrc < IMAGE_BASE ? IMAGE_BASE : ARCH_USER_TOP) - usrc);
	long n = sparc64_user_strcpy(dst, (const char *)usrc, room);
	if (n == -2 && room < max)
		return -1;
	return n;
}

/* --- FPU, switching, entering user mode ---------------------------------------------- */

#define FPU_AREA 264                   /* switch.S: 32 doubles and %fsr */
void sparc64_fpu_save(void *area);     /* switch.S */
void sparc64_fpu_load(const void *area);

void *arch_fpu_alloc(void) { return kzalloc(FPU_AREA); }
void arch_fpu_free(void *area) { kfree(area); }
void arch_fpu_reset(void *area) { memset(area, 0, FPU_AREA); }

void *arch_fpu_copy(void)
{
	void *area = kzalloc(FPU_AREA);

	if (area != NULL) {
		uint64_t flags = arch_irq_save();
		sparc64_fpu_save(area);
		arch_irq_restore(flags);
	}
	return area;
}

static uint64_t kstack_top(struct thread *t) { return (uint64_t)t->t_stack + THREAD_STACK_SIZE; }

/* user_frame: t's user registers: the frame at the top of its kernel stack (traps.S). */
static struct trap_frame *user_frame(struct thread *t)
{
	return (struct trap_frame *)kstack_top(t) - 1;
}

void arch_thread_switch(struct thread *prev, struct thread *next)
{
	if (prev->t_fpu != NULL)
		sparc64_fpu_save(prev->t_fpu);
	if (next->t_fpu != NULL)
		sparc64_fpu_load(next->t_fpu);
	if (next->t_as != NULL) {
		sparc64_mmu_page.mp_kstack = kstack_top(next);
		arch_as_activate(next->t_as);
	}
}

void arch_user_enter(uint64_t pc, uint64_t sp)
{
	struct thread *t = curthread();

	arch_irq_disable();
	struct trap_frame *tf = user_frame(t);
	memset(tf, 0, sizeof(*tf));
	tf->tf_tstate = TSTATE_USER;
	tf->tf_tpc = pc;
	tf->tf_tnpc = pc + 4;
	tf->tf_o[6] = sp - WINDOW_SAVE - STACK_BIAS;       /* crt0.S: argc above the save area */
	sparc64_fpu_load(t->t_fpu);
	sparc64_mmu_page.mp_kstack = kstack_top(t);
	arch_as_activate(t->t_as);
	sparc64_user_return(tf);
}

void *arch_user_frame_copy(void)
{
	struct trap_frame *copy = kmalloc(sizeof(*copy));

	if (copy != NULL)
		*copy = *user_frame(curthread());
	return copy;
}

void arch_user_resume(void *frame, uint64_t rv)
{
	struct thread *t = curthread();

	arch_irq_disable();
	struct trap_frame *tf = user_frame(t);
	*tf = *(struct trap_frame *)frame;
	kfree(frame);
	tf->tf_o[0] = rv;
	sparc64_fpu_load(t->t_fpu);
	sparc64_mmu_page.mp_kstack = kstack_top(t);
	arch_as_activate(t->t_as);
	sparc64_user_return(tf);
}

/* --- traps from user mode ------------------------------------------------------------ */

static int fault_signal(uint64_t tt)
{
	switch (tt) {
	case 0x28: return SIGFPE;                     /* division by zero */
	case 0x10: case 0x11: return SIGILL;          /* illegal, privileged instruction */
	case 0x34: case 0x35: case 0x36: case 0x37: case 0x38: case 0x39: return SIGBUS;  /* alignment */
	default:
		if (tt >= 0x100)
			return SIGTRAP;                       /* a trap instruction nobody handles */
		if (tt >= 0x20 && tt <= 0x27)
			return SIGFPE;                        /* floating point */
		return SIGSEGV;
	}
}

/* wbuf_copyout: the windows traps.S kept in mp_wbuf to the user's stack; false if one cannot go there. */
static bool wbuf_copyout(uint64_t *bad)
{
	struct sparc64_wbuf w[MMU_WBUF_MAX];
	int n = (int)sparc64_mmu_page.mp_wbuf_n;                 /* interrupts off: ours alone */

	memcpy(w, sparc64_mmu_page.mp_wbuf, (size_t)n * sizeof(w[0]));
	sparc64_mmu_page.mp_wbuf_n = 0;
	for (int i = 0; i < n; i++)
		if (arch_copyout(w[i].wb_sp + STACK_BIAS, w[i].wb_regs, sizeof(w[i].wb_regs)) < 0) {
			*bad = w[i].wb_sp + STACK_BIAS;
			return false;
		}
	return true;
}

static void __attribute__((noreturn)) user_die(int sig, uint64_t addr, uint64_t pc)
{
	arch_irq_enable();
	proc_fault(sig, addr, pc);
}

/* sparc64_user_window_fault: traps.S: filling a user window faulted at addr (trap tt); the process dies. */
void __attribute__((noreturn)) sparc64_user_window_fault(uint64_t addr, uint64_t tt, uint64_t pc)
{
	sparc64_mmu_page.mp_wbuf_n = 0;
	(void)tt;
	user_die(SIGSEGV, addr, pid_isa_fault_pc(pc));          /* a restore run out of line: its site */
}

void sparc64_irq_dispatch(struct trap_frame *tf);          /* trap.c */

/* user_trap_other: a processor trap from user mode: a copy-on-write fault, or the process dies. */
static void user_trap_other(struct trap_frame *tf)
{
	SYSINFO_ADD(trap, 1);
	if (cow_fault(tf))
		return;
	sparc64_user_fault_count(tf->tf_tt);
	uint64_t addr = (tf->tf_tt >= 0x30 && tf->tf_tt <= 0x39) || (tf->tf_tt >= 0x68 && tf->tf_tt <= 0x6f)
	                ? tf->tf_sfar : tf->tf_tt == 0x64 || tf->tf_tt == 0x08 ? tf->tf_tpc : 0;
	user_die(fault_signal(tf->tf_tt), addr, pid_isa_fault_pc(tf->tf_tpc));
}

/* sparc64_user_trap: trap.c: a trap from user mode (interrupts off). */
void sparc64_user_trap(struct trap_frame *tf)
{
	uint64_t bad;

	if (sparc64_mmu_page.mp_wbuf_n != 0 && !wbuf_copyout(&bad))
		user_die(SIGSEGV, bad, tf->tf_tpc);
	if (tf->tf_tt >= 0x41 && tf->tf_tt <= 0x4f) {
		sparc64_irq_dispatch(tf);
	} else if ((tf->tf_tt == TT_PID || tf->tf_tt == TT_PID_RET) &&
	           pid_isa_trap((struct trapframe *)tf)) {
		;                                                /* a pid probe's trap: fired, replayed */
	} else if (tf->tf_tt == TT_SYSCALL) {
		uint64_t args[6] = { tf->tf_o[0], tf->tf_o[1], tf->tf_o[2], tf->tf_o[3], tf->tf_o[4],
		                     tf->tf_o[5] };
		tf->tf_tpc = tf->tf_tnpc;                        /* past the ta, before fork copies it */
		tf->tf_tnpc += 4;
		arch_irq_enable();
		tf->tf_o[0] = (uint64_t)syscall_dispatch(tf->tf_g[1], args);
		arch_irq_disable();
	} else {
		user_trap_other(tf);
	}
	proc_user_return();
}

/* sparc64_kernel_cow: trap.c: a kernel write to a copy-on-write user page (copyout); true: retry. */
bool sparc64_kernel_cow(struct trap_frame *tf)
{
	if (tf->tf_tt != 0x6c || tf->tf_sfar >= ARCH_USER_TOP)
		return false;
	bool ie = (tf->tf_tstate >> 8) & 2;
	if (ie)
		arch_irq_enable();                   /* it may allocate and copy */
	bool done = cow_fault(tf);
	arch_irq_disable();
	return done;
}

/*
 * arch_as_page_put: a space drops its reference on a user page
 * (kernel/page_ref.c counts them); the last frees it, and it stops counting
 * in arch_user_pages.
 */
void arch_as_page_put(void *page)
{
	if (page_ref_put(page)) {
		page_free(page);
		pages_add(-1);
	}
}
