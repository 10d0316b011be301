/*
 * arch.h - what portable code may ask of the machine.
 *
 * Portable code (kernel/, trace/, userland/) includes this header and never
 * names the architecture.  arch/<isa>/ implements it.
 */
#ifndef SONDE_ARCH_H
#define SONDE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit statuses seen by QEMU (isa-debug-exit writes v; QEMU exits (v << 1) | 1). */
#define POWEROFF_OK       0      /* QEMU exit 33 */
#define POWEROFF_FAILURE  -1     /* QEMU exit 3: crash, panic */

/*
 * arch_poweroff: stop the machine.  status >= 0 is a command's exit status
 * (0..111), reported to the host as QEMU exit 33 + 2 * status; POWEROFF_FAILURE
 * reports a crash (exit 3).  Never returns.
 */
void arch_poweroff(int status) __attribute__((noreturn));
void arch_reboot(void) __attribute__((noreturn));

/* Interrupt state of the local CPU. */
uint64_t arch_irq_save(void);                     /* disable, return previous state */
void arch_irq_restore(uint64_t flags);
void arch_irq_enable(void);
void arch_irq_disable(void);
bool arch_irq_enabled(void);
void arch_wait_for_interrupt(void);               /* enable interrupts and halt until one */
void arch_cpu_relax(void);                        /* in spin loops */
uint64_t arch_cycles(void);                       /* raw time stamp counter */
int arch_cpu_id(void);
/*
 * arch_curthread: the running thread, this CPU's cpu_thread read in one
 * step.  Finding the CPU and then reading its thread in two steps is a
 * race: preempted between them and resumed on another CPU, the caller
 * reads the first CPU's new thread (mutex_unlock then found its own mutex
 * "not held by the caller").
 */
struct thread;
struct thread *arch_curthread(void);

/*
 * The DIF JIT's code area (x86_64: jit_area.c; trace/jit.c has weak
 * fallbacks for a machine without one).  arch_jit_install: copy len bytes of
 * native code into executable memory, which every CPU runs after the next
 * text_patch_sync(); NULL when full.  arch_jit_reset: none of the area's code can run any more.
 * Thread context, under the framework lock.
 */
void *arch_jit_install(const uint8_t *code, size_t len);
void arch_jit_reset(void);

/*
 * arch_backtrace: walk the frame-pointer chain from the caller (skip frames),
 * storing up to max return addresses in pcs; returns how many.  Any context;
 * stops at the first frame outside the current kernel stack.
 */
int arch_backtrace(uint64_t *pcs, int max, int skip);

/*
 * arch_frame_step: the return address held by the frame at *fp (a frame
 * pointer as the machine keeps it: %rbp on x86_64, a window's biased %sp
 * on sparc64), and *fp moved to its caller's frame; 0 when *fp is not a
 * readable kernel frame.  stack()'s walk (trace/probe.c).  Probe context.
 */
uint64_t arch_frame_step(uint64_t *fp);
/*
 * arch_frame_here: a frame pointer, as arch_frame_step takes it, on the
 * calling function's own chain: its own frame (x86_64: %rbp) or its
 * caller's (sparc64: %fp, the caller's %sp), so that the first step gives
 * the return address into the caller or the caller's caller.  Valid while
 * the function runs.  stack() walks from it past the framework's frames.
 */
#define arch_frame_here() ((uint64_t)__builtin_frame_address(0) - ARCH_FRAME_BIAS)
/* arch_frame_make: lay out in area (16 words) an outermost frame returning to ret; its frame pointer (self-tests). */
uint64_t arch_frame_make(uint64_t area[16], uint64_t ret);
/* vm_wx_violations: pages of the kernel image mapped writable and executable; 0 is right (self-tests). */
int vm_wx_violations(void);

/*
 * arch_safe_read: copy len bytes from src to dst; returns 0, or -1 if reading
 * src faulted (unmapped, non-canonical).  The kernel keeps running either
 * way.  Any context.
 */
int arch_safe_read(void *dst, const void *src, size_t len);

/* Inter-processor interrupts: what they ask of the target. */
enum arch_ipi { IPI_XCALL, IPI_RESCHED };
void arch_send_ipi(int cpu, enum arch_ipi kind);   /* cpu: index in cpus[] */

/*
 * arch_smp_start: find the other processors (ACPI) and start them; each
 * ends up in its idle loop.  Returns the number of CPUs running.  Boot, BSP.
 */
int arch_smp_start(void);

/* arch_fault_test: provoke a CPU exception on purpose (for the crash command). */
enum arch_fault { FAULT_PAGE, FAULT_DIVIDE, FAULT_UD, FAULT_GP, FAULT_BREAKPOINT, FAULT_STACK };
void arch_fault_test(enum arch_fault kind);

/* The console device (16550 UART on x86_64); kernel/console.c sits on top. */
void arch_console_init(void);                     /* polled output works after this */
void arch_console_putc(char c);                   /* polled; any context */
void arch_console_irq_on(void);                   /* receive interrupts call console_rx() */
void console_rx(int c);                           /* kernel/console.c: a received byte */
void arch_console_err_init(void);                 /* the error stream's device (COM2), polled */
void arch_console_err_putc(char c);               /* polled; any context */
/* The link to another machine (a spare 16550 on x86_64, COM4); kernel/link.c sits on top. */
bool arch_link_init(void);                        /* is there a link device? set it up (boot) */
void arch_link_putc(uint8_t c);                   /* polled; thread context */
void arch_link_irq_on(void);                      /* receive interrupts call link_input() */
void link_input(uint8_t c);                       /* kernel/link.c: a received byte */

/*
 * PCI (x86_64: arch/x86_64/pci.c, configuration mechanism #1 and the
 * IOAPIC; sparc64: stubs that find no PCI device, so no disk there yet).
 * arch_pci_cfg_read/write: the 32-bit word at off (a multiple of 4, < 256)
 * of function fn of device dev on bus bus; an absent function reads as all
 * ones.  arch_pci_io_*: an I/O-space BAR's registers (port numbers as the
 * BAR gives them).  Any context.
 * arch_pci_intr_on: route the PCI interrupt line line (the configuration
 * space's Interrupt Line register, set by the firmware) to the CPUs,
 * level-triggered, and from then on call dev_intr(dip, fn, arg) on each of
 * its interrupts; a line may be shared, so fn must ask its device whether
 * it interrupted.  false (nothing routed) if the line is not usable or has
 * too many devices.  Boot, thread context.
 */
uint32_t arch_pci_cfg_read(int bus, int dev, int fn, int off);
void arch_pci_cfg_write(int bus, int dev, int fn, int off, uint32_t v);
uint8_t arch_pci_io_read8(uint32_t port);
uint16_t arch_pci_io_read16(uint32_t port);
uint32_t arch_pci_io_read32(uint32_t port);
void arch_pci_io_write8(uint32_t port, uint8_t v);
void arch_pci_io_write16(uint32_t port, uint16_t v);
void arch_pci_io_write32(uint32_t port, uint32_t v);
struct dev_info;
bool arch_pci_intr_on(int line, struct dev_info *dip, void (*fn)(void *arg), void *arg);
/*
 * arch_pci_windows: the address ranges [base, limit) from which the kernel
 * may give addresses to BARs the firmware left unassigned (kernel/pci.c):
 * win[0] I/O space, win[1] 32-bit memory space.  false: none (assign nothing).
 */
struct pci_window { uint64_t pw_base, pw_limit; };
bool arch_pci_windows(struct pci_window win[2]);
/*
 * arch_pci_intx_line: the interrupt line INTx pin pin (1..4) of function fn
 * of device dev on bus bus reaches on this machine, where the board says so
 * (fw_line, the firmware's Interrupt Line register, otherwise).  Boot.
 */
int arch_pci_intx_line(int bus, int dev, int fn, int pin, int fw_line);

/* Boot-time set-up of the machine, in the order kmain calls it. */
void arch_boot_info(uint32_t magic, uint32_t info_phys); /* fills boot_info */
void arch_cpu_init(void);                         /* descriptor tables, per-CPU base */
void arch_intr_init(void);                        /* interrupt controllers, timer calibration */

/* The timer behind the cyclic facility. */
void arch_timer_oneshot(uint64_t delta_ns);       /* interrupt after about delta_ns */
uint64_t arch_time_ns(void);                      /* ns since boot */
uint64_t arch_rtc_seconds(void);                  /* wall clock: s since 1970 (UTC), 0 if unknown; slow */

/* A new thread's initial stack: arch_switch() to the result starts entry(arg). */
uint64_t arch_thread_stack_init(void *stack_top, void *thread);
void arch_context_switch(uint64_t *save_sp, uint64_t new_sp);

/*
 * User processes: the machine's half (arch/<isa>/vm_user.c, entry.asm).
 *
 * A user address space is the lower half [ARCH_USER_BASE, ARCH_USER_TOP)
 * of its own page tables; the kernel half is shared by all of them.  Pages
 * are mapped one at a time, from page_alloc(), and belong to the address
 * space from then on: arch_as_destroy frees each one and the tables.  A
 * page is never writable and executable at once.
 */
/*
 * The format of C's (and D's) long double, 16 bytes on both machines
 * (ARCH_LDOUBLE_FORMAT): the consumer formats one from its bytes
 * (console/dtrace/dtc_float.c).
 */
#define ARCH_LDOUBLE_X87  1                     /* x86's 80-bit extended, in the first 10 bytes */
#define ARCH_LDOUBLE_QUAD 2                     /* IEEE 754 binary128 (SPARC V9) */
#ifdef __sparc__
#include "arch/sparc64/machine.h"               /* the same constants for sparc64 */
#else
#define ARCH_LDOUBLE_FORMAT ARCH_LDOUBLE_X87
#define ARCH_USER_BASE    0x10000UL             /* the lowest mappable address: NULL faults */
#define ARCH_USER_TOP     0x0000800000000000UL  /* the first address above the user half */
#define ARCH_ELF_MACHINE  62                    /* this machine in an ELF header (EM_X86_64) */
#define ARCH_MACHINE_NAME "x86_64"              /* uname(2)'s machine */
/* A disabled SDT site (kernel/sdt.h): nopl 0x0(%rax,%rax), 5 bytes. */
#define ARCH_SDT_NOP      ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00"
#define ARCH_SDT_SITE_LEN 5
/*
 * A branch site (kernel/baggage_site.h): off it is `cmp $imm32,%eax` (0x3D,
 * flags only, declared clobbered), on it is `jmp rel32` (0xE9) to label; the
 * four bytes after the opcode are the jump's displacement in both, so
 * arch_branch_site_set writes one byte.
 */
#define ARCH_BRANCH_SITE(label) ".byte 0x3d\n\t.long " label " - (. + 4)"
#define ARCH_BRANCH_SITE_OFF    0x3d
#define ARCH_BRANCH_SITE_ON     0xe9
#define ARCH_SDT_CALL_PATH 1                    /* sites may be armed as calls (sdt_isa.c) */
/* The pid provider's trap (trace/prov_pid.c): what a planted site's first bytes become: int3. */
#define ARCH_PID_TRAP     { 0xcc }
#define ARCH_PID_TRAP_LEN 1
/* A USDT site's length (userland/libc/x86_64/usdt_isa.h): a 5-byte NOP, or xor + 3-byte NOP. */
#define ARCH_USDT_SITE_LEN 5
#define ARCH_FRAME_BIAS   0                     /* __builtin_frame_address(0) is %rbp itself */
#endif
#define ARCH_PROT_WRITE   1
#define ARCH_PROT_EXEC    2

/*
 * arch_tlb_flush_kernel: drop this CPU's TLB entries (and cached table
 * entries) for the kernel heap area, so that a range another CPU unmapped
 * may be reused (kernel/kheap.c's TLB epoch).  Interrupts off.
 */
void arch_tlb_flush_kernel(void);

struct arch_as;
struct thread;
/* arch_as_create: an empty user half (kernel half shared); NULL when memory is short.  Thread context. */
struct arch_as *arch_as_create(void);
/*
 * arch_as_destroy: free every page mapped in as (shared ones with their last
 * reference), and its tables.  No thread may run in it any more; CPUs that
 * still have it loaded (lazily) are made to load the kernel's tables first,
 * by cross-call.  Thread context, no spinlock held.
 */
void arch_as_destroy(struct arch_as *as);
/*
 * arch_as_map: map page (a page_alloc() address) at user address va with
 * prot (ARCH_PROT_*).  False if va is not a page-aligned user address, is
 * already mapped, prot asks for write and execute, or a table cannot be
 * allocated.  Thread context.
 */
bool arch_as_map(struct arch_as *as, uint64_t va, void *page, int prot);
/*
 * arch_as_unmap: unmap the page at va and return it, or NULL if none.  The
 * caller then calls arch_as_flush over what it unmapped and only after that
 * gives each page back with arch_as_page_put (another CPU may still reach
 * it through its TLB until the flush).
 */
void *arch_as_unmap(struct arch_as *as, uint64_t va);
/*
 * arch_as_flush: after pages of [lo, hi) were unmapped or made read-only in
 * as, invalidate them on this CPU and, by cross-call (one per CPU, each
 * firing sysinfo:::xcalls), on every other CPU that has as loaded; returns
 * when none can use the old entries.  A long range is a full flush.
 * Thread context, or interrupts off holding no spinlock another CPU may
 * spin on with interrupts off.
 */
void arch_as_flush(struct arch_as *as, uint64_t lo, uint64_t hi);
/* arch_as_page_put: give back a page arch_as_unmap returned: freed with its last reference (fork shares pages). */
void arch_as_page_put(void *page);
/*
 * arch_as_page_private: make the page mapped at va (any address in it) in
 * as belong to as alone, copying it if another space shares it (fork's
 * copy-on-write), with the same permissions, and return its kernel address
 * (the direct map), through which the caller may write it (a breakpoint
 * into a program's text) without another process seeing the change; NULL
 * if nothing is mapped there or memory is short.  Thread context, no
 * spinlock held (it may cross-call); the caller keeps as alive.
 */
void *arch_as_page_private(struct arch_as *as, uint64_t va);
/* arch_as_current: the space loaded on this CPU (NULL: the kernel's tables).  Interrupts off. */
struct arch_as *arch_as_current(void);
/* arch_as_cpus: the CPUs (bit c for CPU c) that have as loaded now, hence may hold its TLB entries.  Any context. */
uint64_t arch_as_cpus(struct arch_as *as);
/* arch_as_page: the kernel's address of the page mapped at va (page-aligned), or NULL. */
void *arch_as_page(struct arch_as *as, uint64_t va);
/* arch_as_pages: how many pages (mapped and tables) as holds.  Thread context. */
uint64_t arch_as_pages(struct arch_as *as);
/*
 * arch_as_copy: a new address space with the pages of as (fork): shared,
 * read-only in both, writable ones copied at their first write
 * (copy-on-write), or copied now when booted with nocow; NULL when memory
 * is short.  Thread context, no spinlock held (it flushes as).
 */
struct arch_as *arch_as_copy(struct arch_as *as);
/* arch_as_next: the first mapped page at or above va (page-aligned) and below hi, or hi; skips empty tables. */
uint64_t arch_as_next(struct arch_as *as, uint64_t va, uint64_t hi);
/*
 * arch_user_text_poke: write the len bytes b (ARCH_PID_TRAP_LEN at most,
 * inside one page, naturally aligned where the machine's instructions are)
 * at user text address va of as through the kernel's mapping of the page
 * (the pid provider's traps), in one store where the machine needs it so
 * that the process never fetches half of them; the old bytes to old.
 * false if va is not mapped user-executable (or memory is short).  A page
 * shared copy-on-write is made private first, so no other process sees
 * the bytes.  Thread context, no spinlock held; callers serialise.
 */
bool arch_user_text_poke(struct arch_as *as, uint64_t va, const uint8_t *b, size_t len, uint8_t *old);
/* arch_user_pages: pages held by every address space now (tables and mapped pages).  Any context. */
uint64_t arch_user_pages(void);
/*
 * arch_as_activate: load as on this CPU (NULL: the kernel's own tables);
 * nothing happens if it is loaded already.  A CPU keeps a space loaded
 * until it loads another: the switch to a kernel thread or the idle thread
 * loads nothing (lazy switching).  Interrupts off.
 */
void arch_as_activate(struct arch_as *as);

/*
 * arch_copyin/arch_copyout: copy between the kernel and the current
 * address space's user half; 0, or -1 if any byte is outside the user half
 * or not mapped (readable, resp. writable): never a kernel fault.
 * arch_copyinstr: a NUL-terminated string of at most max bytes (with the
 * NUL); its length, -1 on a bad address, -2 if no NUL within max.  Thread
 * context.
 */
int arch_copyin(void *dst, uint64_t usrc, size_t len);
int arch_copyout(uint64_t udst, const void *src, size_t len);
long arch_copyinstr(char *dst, uint64_t usrc, size_t max);

/*
 * arch_user_probe: are the len bytes at user address va mapped for user
 * mode in the address space loaded on this CPU (none if a kernel thread
 * runs)?  Nothing is paged in.  Any context, probe context included (a
 * page-table walk).
 */
bool arch_user_probe(uint64_t va, size_t len);
/* arch_user_store: copy len bytes to user address udst if all are mapped writable here; 0 or -1.  Any context. */
int arch_user_store(uint64_t udst, const void *src, size_t len);

/*
 * arch_user_enter: leave the kernel for user mode at pc with stack pointer
 * sp and every other register zero, in the current thread (its t_as
 * loaded).  Never returns: the thread comes back through system calls and
 * traps.  Thread context.
 */
void arch_user_enter(uint64_t pc, uint64_t sp) __attribute__((noreturn));

/*
 * FPU/SSE registers of a user thread: an area in their initial state,
 * freeing it (NULL is fine), a new area holding the current thread's live
 * registers (fork), and putting an area back to the initial state (exec).
 */
void *arch_fpu_alloc(void);
void arch_fpu_free(void *area);
void *arch_fpu_copy(void);
void arch_fpu_reset(void *area);

/*
 * fork's half: arch_user_frame_copy returns a heap copy of the registers
 * the current thread will return to user mode with (its system call's
 * frame), or NULL when memory is short; arch_user_resume, in the new
 * thread (t_as, t_fpu set), frees that copy and returns to user mode with
 * those registers and rv as the system call's result.  Thread context.
 */
void *arch_user_frame_copy(void);
void arch_user_resume(void *frame, uint64_t rv) __attribute__((noreturn));

/*
 * arch_thread_switch: the machine state that changes with the running
 * thread besides its registers: the FPU/SSE registers of user threads, the
 * kernel stack that traps from user mode land on, and the address space.
 * The scheduler calls it just before arch_context_switch, sched_lock held.
 */
void arch_thread_switch(struct thread *prev, struct thread *next);

/*
 * The portable side, called by the machine code.
 * syscall_dispatch: system call nr with its six arguments; returns the
 * value for the user (a negative errno on failure).  Interrupts on.
 * proc_fault: the current process took a fault in user mode (sig is the
 * signal, kernel/proc.h: SIGSEGV, SIGFPE, ...; addr the faulting address if any, pc the
 * user pc): it dies; never returns.
 */
int64_t syscall_dispatch(uint64_t nr, const uint64_t args[6]);
void proc_fault(int sig, uint64_t addr, uint64_t pc) __attribute__((noreturn));

#endif
