/*
 * vm_user.c - user mode on x86_64: address spaces, system call entry,
 * copying to and from user memory, FPU/SSE state, user faults.
 *
 * Address spaces.  Each process has its own PML4.  Entries 0..255 (the
 * lower half, ARCH_USER_BASE..ARCH_USER_TOP) are its own, built from pages
 * of page_alloc() with the user bit at every level; entries 256..511 are
 * copied from the kernel's PML4 when the space is made, and since vm_init
 * gave each of those a table up front, every address space sees every
 * later kernel mapping.  A leaf is never writable and executable at once
 * (NX on everything not executable).  A space stays loaded on a CPU after
 * its thread leaves it, until that CPU runs another process (vm_tlb.c:
 * lazy switching), so unmapping or downgrading a page is followed by
 * arch_as_flush, which cross-calls the other CPUs that hold the space, and
 * only then are the pages freed.  Leaves may be shared between spaces
 * after fork (vm_cow.c): a leaf's page is given back with arch_as_page_put,
 * which frees it with its last reference.
 *
 * System calls.  SYSCALL enters syscall_entry (entry.asm) with interrupts
 * off (MSR_FMASK), which builds a trap frame on the thread's kernel stack
 * and calls arch_syscall(); SYSRET returns.  STAR's selectors are the GDT's
 * (gdt.c): kernel code 0x08 and data 0x10; SYSRET loads user data at
 * 0x18|3 and user code at 0x20|3.
 *
 * FPU/SSE: the kernel never touches those registers (-mgeneral-regs-only),
 * so they always hold the state of the last user thread that ran here;
 * arch_thread_switch saves it into that thread's area (FXSAVE) and loads
 * the next user thread's (FXRSTOR).
 *
 * Copies.  The kernel touches user memory only through user_copy and
 * user_strcpy (entry.asm), whose loads and stores are in the exception
 * table, after a range check against the user half: arch_copyin/out/instr
 * for system calls; arch_user_probe and arch_user_store for D in probe
 * context, which also walk the loaded tables first (user bit, and the
 * write bit for stores) and are kept out of fbt's reach.
 *
 * Faults in user mode (trap.c sends them here) become a signal for the
 * process: proc_fault() never returns.
 *
 * Order: address spaces, copies, FPU and switching, fork's frames, entries
 * from user mode.
 *
 * Tests: tests/e2e/test_proc.py, tests/e2e/test_mem.py (/bin/syscheck,
 *        /bin/sysfuzz)
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/pid_isa.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "arch/x86_64/vm_user.h"

#define FPU_AREA  512
#define VEC_SYSCALL 256

static uint64_t user_pages;      /* pages held by all address spaces (atomic): tables and leaves */

static void user_pages_add(int64_t n)
{
	__atomic_add_fetch(&user_pages, (uint64_t)n, __ATOMIC_RELAXED);
}

void vm_user_pages_add(int64_t n)
{
	user_pages_add(n);
}

uint64_t arch_user_pages(void)
{
	return __atomic_load_n(&user_pages, __ATOMIC_RELAXED);
}

int user_copy(void *dst, const void *src, size_t len);        /* entry.asm */
long user_strcpy(char *dst, const char *src, size_t max);
void syscall_entry(void);
void user_iret(uint64_t pc, uint64_t sp) __attribute__((noreturn));

static inline __attribute__((always_inline)) uint64_t *table_va(uint64_t entry)
{
	return phys_to_virt(entry & PTE_ADDR);
}

static inline __attribute__((always_inline)) int va_index(uint64_t va, int level)
{
	return (int)((va >> (12 + 9 * level)) & 511);
}

/* --- address spaces ------------------------------------------------------ */

struct arch_as *arch_as_create(void)
{
	struct arch_as *as = kzalloc(sizeof(*as));
	uint64_t *root = as ? page_alloc() : NULL;

	page_ref_init();

	if (root == NULL) {
		kfree(as);
		return NULL;
	}
	memcpy(root + 256, (uint64_t *)phys_to_virt(vm_kernel_root()) + 256, 256 * sizeof(uint64_t));
	as->as_root = virt_to_phys(root);
	user_pages_add(1);
	return as;
}

/* as_leaf: the page-table entry for user address va, creating tables if create. */
static uint64_t *as_leaf(struct arch_as *as, uint64_t va, bool create)
{
	uint64_t *table = phys_to_virt(as->as_root);

	for (int level = 3; level > 0; level--) {
		uint64_t *e = &table[va_index(va, level)];
		if (!(*e & PTE_P)) {
			void *page = create ? page_alloc() : NULL;
			if (page == NULL)
				return NULL;
			user_pages_add(1);
			*e = virt_to_phys(page) | PTE_P | PTE_W | PTE_U;
		}
		table = table_va(*e);
	}
	return &table[va_index(va, 0)];
}

uint64_t *vm_as_leaf(struct arch_as *as, uint64_t va, bool create)
{
	return as_leaf(as, va, create);
}

static bool va_user_page(uint64_t va)
{
	return (va & (PAGE_SIZE - 1)) == 0 && va >= ARCH_USER_BASE && va < ARCH_USER_TOP;
}

bool arch_as_map(struct arch_as *as, uint64_t va, void *page, int prot)
{
	if (!va_user_page(va) || (prot & ARCH_PROT_WRITE && prot & ARCH_PROT_EXEC))
		return false;
	uint64_t *e = as_leaf(as, va, true);
	if (e == NULL || (*e & PTE_P))
		return false;
	*e = virt_to_phys(page) | PTE_P | PTE_U | (prot & ARCH_PROT_WRITE ? PTE_W : 0) |
	     (prot & ARCH_PROT_EXEC ? 0 : PTE_NX);
	user_pages_add(1);
	return true;
}

void *arch_as_unmap(struct arch_as *as, uint64_t va)
{
	uint64_t *e = va_user_page(va) ? as_leaf(as, va, false) : NULL;

	if (e == NULL || !(*e & PTE_P))
		return NULL;
	uint64_t old = __atomic_exchange_n(e, 0, __ATOMIC_SEQ_CST);   /* arch_as_page_private may race */
	if (!(old & PTE_P))
		return NULL;
	if (read_cr3() == as->as_root)
		invlpg(va);
	return table_va(old);
}

void *arch_as_page(struct arch_as *as, uint64_t va)
{
	uint64_t *e = va < ARCH_USER_TOP ? as_leaf(as, ALIGN_DOWN(va, PAGE_SIZE), false) : NULL;

	return e != NULL && (*e & PTE_P) ? table_va(*e) : NULL;
}

/*
 * as_walk_level: count the pages under a table at level (0 = leaves); if
 * free, free the tables and give back the leaves (arch_as_page_put), and
 * count only the pages that were freed (a shared leaf lives on).
 */
static uint64_t as_walk_level(uint64_t *table, int level, int nentries, bool free)
{
	uint64_t n = 0;

	for (int i = 0; i < nentries; i++) {
		if (!(table[i] & PTE_P))
			continue;
		if (level > 0)
			n += as_walk_level(table_va(table[i]), level - 1, 512, free);
		if (free && level == 0) {
			arch_as_page_put(table_va(table[i]));   /* counts itself */
			continue;
		}
		n++;
		if (free)
			page_free(table_va(table[i]));
	}
	return n;
}

uint64_t arch_as_pages(struct arch_as *as)
{
	return 1 + as_walk_level(phys_to_virt(as->as_root), 3, 256, false);
}

/* as_copy_level: copy the tree under src_table (at level, covering base) into dst. */
static bool as_copy_level(struct arch_as *dst, const uint64_t *table, int level, int n, uint64_t base)
{
	for (int i = 0; i < n; i++) {
		if (!(table[i] & PTE_P))
			continue;
		uint64_t va = base + ((uint64_t)i << (12 + 9 * level));
		if (level > 0) {
			if (!as_copy_level(dst, table_va(table[i]), level - 1, 512, va))
				return false;
			continue;
		}
		if (page_ref_enabled()) {
			uint64_t *e = as_leaf(dst, va, true);
			if (e == NULL)
				return false;
			uint64_t *src = (uint64_t *)&table[i];
			uint64_t pte = __atomic_load_n(src, __ATOMIC_SEQ_CST);
			while ((pte & PTE_W) &&                 /* both copy when they write; a CAS, */
			       !__atomic_compare_exchange_n(src, &pte, (pte & ~PTE_W) | PTE_COW, false,
			                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
				;                               /* as arch_as_page_private may race */
			if (pte & PTE_W)
				pte = (pte & ~PTE_W) | PTE_COW;
			page_ref_get(table_va(pte));
			*e = pte;
			continue;
		}
		void *page = page_alloc();
		uint64_t *e = page != NULL ? as_leaf(dst, va, true) : NULL;
		if (e == NULL) {
			if (page != NULL)
				page_free(page);
			return false;
		}
		memcpy(page, table_va(table[i]), PAGE_SIZE);
		*e = virt_to_phys(page) | (table[i] & ~PTE_ADDR);
		user_pages_add(1);
	}
	return true;
}

struct arch_as *arch_as_copy(struct arch_as *src)
{
	struct arch_as *as = arch_as_create();

	bool ok = as != NULL && as_copy_level(as, phys_to_virt(src->as_root), 3, 256, 0);

	if (as != NULL && page_ref_enabled())
		arch_as_flush(src, 0, ARCH_USER_TOP);           /* its writable pages became read-only */
	if (as != NULL && !ok) {
		arch_as_destroy(as);
		return NULL;
	}
	return as;
}

uint64_t arch_as_next(struct arch_as *as, uint64_t va, uint64_t hi)
{
	hi = MIN(hi, ARCH_USER_TOP);
	while (va < hi) {
		const uint64_t *table = phys_to_virt(as->as_root);
		int level = 3;
		for (; level >= 0; level--) {
			uint64_t e = table[va_index(va, level)];
			if (!(e & PTE_P))
				break;
			if (level == 0)
				return va;
			table = table_va(e);
		}
		uint64_t span = 1UL << (12 + 9 * level);   /* what the missing entry covers */
		va = ALIGN_DOWN(va, span) + span;
	}
	return hi;
}

void arch_as_destroy(struct arch_as *as)
{
	if (as == NULL)
		return;
	vm_tlb_release(as);                  /* no CPU has the tables loaded from here on */
	uint64_t n = as_walk_level(phys_to_virt(as->as_root), 3, 256, true);
	page_free(phys_to_virt(as->as_root));
	user_pages_add(-(int64_t)(n + 1));
	kfree(as);
}

/* --- copying to and from user memory -------------------------------------- */

/*
 * user_mapped: are [va, va + len) mapped for user mode here, with want
 * (PTE_W or 0) set?  Only the running thread's own space counts: a kernel
 * thread may run with the last process's tables still loaded (vm_tlb.c).
 * Probe context.
 */
static inline __attribute__((always_inline)) bool user_mapped(uint64_t va, size_t len, uint64_t want)
{
	struct arch_as *as = vm_cpu()->cpu_thread->t_as;
	uint64_t root = read_cr3() & PTE_ADDR;

	if (len == 0 || va >= ARCH_USER_TOP || len > ARCH_USER_TOP - va || as == NULL ||
	    vm_tlb_loaded() != as || root != as->as_root)
		return false;
	want |= PTE_P | PTE_U;
	for (uint64_t p = ALIGN_DOWN(va, PAGE_SIZE); p < va + len; p += PAGE_SIZE) {
		const uint64_t *table = phys_to_virt(root);
		for (int level = 3; level >= 0; level--) {
			uint64_t e = table[va_index(p, level)];
			if ((e & want) != want)
				return false;
			table = table_va(e);
		}
	}
	return true;
}

/* Probe context (D's copyin, copyout): kept out of fbt's reach. */
NOTRACE bool arch_user_probe(uint64_t va, size_t len)
{
	return user_mapped(va, len, 0);
}

NOTRACE int arch_user_store(uint64_t udst, const void *src, size_t len)
{
	if (!user_mapped(udst, len, PTE_W))
		return -1;
	return user_copy((void *)udst, src, len);
}

static bool user_range(uint64_t va, size_t len)
{
	return va < ARCH_USER_TOP && len <= ARCH_USER_TOP - va;
}

int arch_copyin(void *dst, uint64_t usrc, size_t len)
{
	if (!user_range(usrc, len))
		return -1;
	return user_copy(dst, (const void *)usrc, len);
}

int arch_copyout(uint64_t udst, const void *src, size_t len)
{
	if (!user_range(udst, len))
		return -1;
	return user_copy((void *)udst, src, len);
}

long arch_copyinstr(char *dst, uint64_t usrc, size_t max)
{
	if (usrc >= ARCH_USER_TOP)
		return -1;
	size_t room = MIN(max, ARCH_USER_TOP - usrc);
	long n = user_strcpy(dst, (const char *)usrc, room);
	if (n == -2 && room < max)
		return -1;               /* ran into the end of the user half */
	return n;
}

/* --- FPU/SSE and switching --------------------------------------------------- */

void arch_fpu_reset(void *area);

void *arch_fpu_alloc(void)
{
	uint8_t *area = kzalloc(FPU_AREA);

	if (area == NULL)
		return NULL;
	KASSERT(((uint64_t)area & 15) == 0);
	arch_fpu_reset(area);
	return area;
}

void arch_fpu_free(void *area)
{
	kfree(area);
}

void *arch_fpu_copy(void)
{
	void *area = kzalloc(FPU_AREA);

	if (area != NULL)
		__asm__ volatile("fxsave64 (%0)" :: "r"(area) : "memory");
	return area;
}

void arch_fpu_reset(void *area)
{
	memset(area, 0, FPU_AREA);
	*(uint16_t *)area = 0x037f;                            /* FCW: the x87's state after FNINIT */
	*(uint32_t *)((uint8_t *)area + 24) = 0x1f80;          /* MXCSR: every SSE exception masked */
}

void arch_thread_switch(struct thread *prev, struct thread *next)
{
	if (prev->t_fpu != NULL)
		__asm__ volatile("fxsave64 (%0)" :: "r"(prev->t_fpu) : "memory");
	if (next->t_fpu != NULL)
		__asm__ volatile("fxrstor64 (%0)" :: "r"(next->t_fpu) : "memory");
	if (next->t_as != NULL)
		gdt_set_kstack((uint64_t)next->t_stack + THREAD_STACK_SIZE);
	if (next->t_as != NULL)
		arch_as_activate(next->t_as);   /* a kernel thread keeps what is loaded (vm_tlb.c) */
}

/* syscall_init_cpu: SYSCALL's MSRs and SSE on this CPU (boot and each AP). */
void syscall_init_cpu(void)
{
	uint64_t cr0 = read_cr0(), cr4 = read_cr4();

	cr0 = (cr0 & ~(1UL << 2 | 1UL << 3)) | 1UL << 1;   /* EM and TS off, MP on */
	cr4 |= 1UL << 9 | 1UL << 10;                        /* OSFXSR, OSXMMEXCPT */
	__asm__ volatile("mov %0, %%cr0; mov %1, %%cr4" :: "r"(cr0), "r"(cr4));
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | 1);               /* SCE: SYSCALL on */
	wrmsr(MSR_STAR, (0x10UL << 48) | (0x08UL << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	wrmsr(MSR_FMASK, 0x47700);                          /* IF, DF, TF, AC, NT, IOPL off */
	wrmsr(MSR_KERNEL_GS_BASE, 0);                       /* user GS base */
}

void arch_user_enter(uint64_t pc, uint64_t sp)
{
	struct thread *t = curthread();

	arch_irq_disable();
	__asm__ volatile("fxrstor64 (%0)" :: "r"(t->t_fpu) : "memory");
	gdt_set_kstack((uint64_t)t->t_stack + THREAD_STACK_SIZE);
	arch_as_activate(t->t_as);
	user_iret(pc, sp);
}

/* user_frame: the current thread's user registers, at the top of its kernel stack. */
static struct trapframe *user_frame(void)
{
	struct thread *t = curthread();

	return (struct trapframe *)((uint64_t)t->t_stack + THREAD_STACK_SIZE) - 1;
}

void *arch_user_frame_copy(void)
{
	struct trapframe *copy = kmalloc(sizeof(*copy));

	if (copy != NULL)
		*copy = *user_frame();
	return copy;
}

void user_frame_return(struct trapframe *tf) __attribute__((noreturn));   /* entry.asm */

/* arch_user_resume: the frame is copied to this stack (its top is still in use by our callers). */
void arch_user_resume(void *frame, uint64_t rv)
{
	struct thread *t = curthread();
	struct trapframe tf = *(struct trapframe *)frame;

	kfree(frame);
	tf.tf_rax = rv;
	arch_irq_disable();
	__asm__ volatile("fxrstor64 (%0)" :: "r"(t->t_fpu) : "memory");
	gdt_set_kstack((uint64_t)t->t_stack + THREAD_STACK_SIZE);
	arch_as_activate(t->t_as);
	user_frame_return(&tf);
}

/* --- entries from user mode ----------------------------------------------- */

void arch_syscall(struct trapframe *tf)
{
	uint64_t args[6] = { tf->tf_rdi, tf->tf_rsi, tf->tf_rdx, tf->tf_r10, tf->tf_r8, tf->tf_r9 };

	tf->tf_rax = (uint64_t)syscall_dispatch(tf->tf_rax, args);
	KASSERT(tf->tf_rip < ARCH_USER_TOP);                /* SYSRET to it must not fault */
	arch_irq_disable();
	proc_user_return();
}

static int fault_signal(uint64_t vector)
{
	switch (vector) {
	case 0: case 16: case 19: return SIGFPE;           /* divide, x87, SIMD */
	case 3: case 1:           return SIGTRAP;
	case 6:                   return SIGILL;
	case 12: case 17:         return SIGBUS;           /* stack segment, alignment */
	default:                  return SIGSEGV;          /* page fault, protection, ... */
	}
}

void user_fault(struct trapframe *tf)
{
	uint64_t addr = tf->tf_vector == 14 ? read_cr2() : 0;
	uint64_t pc = pid_isa_fault_pc(tf->tf_rip);        /* a pid probe's stepped copy: the original */

	arch_irq_enable();
	proc_fault(fault_signal(tf->tf_vector), addr, pc);
}

/* --- the pid provider's access to user text (pid_isa.c, trace/prov_pid.c) ---- */

/*
 * arch_user_text_poke: write the len bytes b (one: int3) at user address va
 * of as, which must be mapped user and executable (a text page), through
 * the kernel's mapping of that page; the bytes it held go to old.  false if
 * va is not user text.
 * A page fork left shared copy-on-write is made the process's own first
 * (arch_as_page_private), so the byte never reaches another process.
 * Thread context with no spinlock held (making a page private may
 * cross-call); the caller serialises pokes of one address space.
 */
NOTRACE bool arch_user_text_poke(struct arch_as *as, uint64_t va, const uint8_t *b, size_t len, uint8_t *old)
{
	uint64_t *e = va < ARCH_USER_TOP ? as_leaf(as, ALIGN_DOWN(va, PAGE_SIZE), false) : NULL;

	if (e == NULL || (*e & (PTE_P | PTE_U)) != (PTE_P | PTE_U) || (*e & PTE_NX) || len != 1)
		return false;
	uint8_t *page = arch_as_page_private(as, va);
	if (page == NULL)
		return false;                   /* memory short: the probe is not planted */
	volatile uint8_t *p = page + (va & (PAGE_SIZE - 1));
	*old = *p;
	*p = *b;
	return true;
}

/*
 * arch_user_scratch: the kernel's address of the process's out-of-line
 * page at user address va in as: a page the user sees read-only and
 * executable.  If nothing is mapped there and create is set, one is
 * allocated and mapped (interrupts must be on).  NULL if va holds anything
 * else (the program mapped its own page there) or memory is short.  The
 * process's own thread only (it alone changes its mappings).
 */
void *arch_user_scratch(struct arch_as *as, uint64_t va, bool create)
{
	uint64_t *e = as_leaf(as, va, false);

	if (e != NULL && (*e & PTE_P))
		return (*e & (PTE_U | PTE_W | PTE_NX)) == PTE_U ? table_va(*e) : NULL;
	if (!create)
		return NULL;
	void *page = page_alloc();
	if (page == NULL)
		return NULL;
	memset(page, 0xcc, PAGE_SIZE);
	if (!arch_as_map(as, va, page, ARCH_PROT_EXEC)) {
		page_free(page);
		return NULL;
	}
	return page;
}

/* arch_user_regs: the current thread's saved user registers, or NULL for a kernel thread.  Probe context. */
NOTRACE struct trapframe *arch_user_regs(void)
{
	struct thread *t = curthread();

	if (t->t_proc == NULL || t->t_as == NULL)
		return NULL;
	return (struct trapframe *)((uint64_t)t->t_stack + THREAD_STACK_SIZE) - 1;
}
