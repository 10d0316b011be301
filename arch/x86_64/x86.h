/*
 * x86.h - instructions and registers of x86_64, as small inline functions.
 * The only header in the tree with inline asm; arch/x86_64/ only.
 */
#ifndef SONDE_X86_H
#define SONDE_X86_H

#include <stdbool.h>
#include <stdint.h>

#define RFLAGS_IF        (1UL << 9)
#define MSR_EFER         0xc0000080
#define MSR_GS_BASE      0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102
#define MSR_APIC_BASE    0x1b

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint16_t inw(uint16_t port) { uint16_t v; __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint32_t inl(uint16_t port) { uint32_t v; __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" :: "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t read_cr0(void) { uint64_t v; __asm__ volatile("mov %%cr0, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr2(void) { uint64_t v; __asm__ volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr3(void) { uint64_t v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr4(void) { uint64_t v; __asm__ volatile("mov %%cr4, %0" : "=r"(v)); return v; }
static inline void write_cr3(uint64_t v) { __asm__ volatile("mov %0, %%cr3" :: "r"(v) : "memory"); }
static inline void invlpg(uint64_t va) { __asm__ volatile("invlpg (%0)" :: "r"(va) : "memory"); }

static inline uint64_t read_rflags(void)
{
	uint64_t v;
	__asm__ volatile("pushfq; popq %0" : "=r"(v));
	return v;
}

static inline void cpuid(uint32_t leaf, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}

static inline uint64_t read_rbp(void) { uint64_t v; __asm__ volatile("mov %%rbp, %0" : "=r"(v)); return v; }

/* Entry points in entry.asm and switch.asm. */
extern void *trap_vectors[256];
void arch_switch(uint64_t *save_rsp, uint64_t new_rsp);
void thread_trampoline(void);

/*
 * The register frame entry.asm builds; trap_dispatch() receives a pointer to
 * it.  The six argument registers of the calling convention are adjacent and
 * in argument order (rdi first), so that a probe trap hands a function's
 * arguments to the framework as one array, without copying (fbt_isa.c).
 */
struct trapframe {
	uint64_t tf_r15, tf_r14, tf_r13, tf_r12, tf_r11, tf_r10, tf_rbp, tf_rbx, tf_rax;
	uint64_t tf_rdi, tf_rsi, tf_rdx, tf_rcx, tf_r8, tf_r9;
	uint64_t tf_vector, tf_err;
	uint64_t tf_rip, tf_cs, tf_rflags, tf_rsp, tf_ss;
};

/* Hardware set-up, called from kmain in this order. */
void arch_cpu_init(void);       /* gdt.c: GDT, TSS, IDT, GS base */
void pic_disable(void);         /* apic.c */
void lapic_init(void);
void ioapic_init(void);
void ioapic_route(int irq, int vector);
void ioapic_route_level(int irq, int vector);   /* level-triggered, active high (PCI INTx on QEMU pc) */
void lapic_eoi(void);
void timer_interrupt(void);     /* kernel/cyclic.c */
void uart_interrupt(void *arg);      /* uart.c */
void uart_link_interrupt(void *arg); /* uart.c: the link's UART */
void pci_intr(int line);             /* pci.c: an interrupt on PCI line line (VEC_PCI + line) */
extern struct dev_info uart_console_dev, uart_link_dev;   /* uart.c: kernel/devinfo.h */

#define VEC_TIMER     32
#define VEC_UART      36
#define VEC_LINK      35            /* the link's UART, COM4 on IRQ 3 */
#define VEC_PCI       0x40          /* + the line, 0..23: PCI INTx through the IOAPIC (pci.c) */
#define VEC_PCI_LINES 24
#define VEC_XCALL     0xe0
#define VEC_RESCHED   0xe1
#define VEC_SPURIOUS  255

/* apic.c: the local APIC of this CPU */
uint32_t lapic_id(void);
void lapic_init_ap(void);
void lapic_send_init(uint32_t hwid);
void lapic_send_sipi(uint32_t hwid, uint32_t page);
void arch_cpu_init_ap(int id);   /* gdt.c */
int acpi_cpus(uint32_t *ids, int max); /* acpi.c */
void vm_map_low(bool on);        /* vm.c */
bool vm_fault_spurious(uint64_t va, bool write);   /* vm.c: a heap fault the tables do not explain: retry */
uint64_t vm_kernel_root(void);   /* vm.c: the kernel's PML4 (physical) */
void gdt_set_kstack(uint64_t top); /* gdt.c: where traps from user mode land on this CPU */
void syscall_init_cpu(void);     /* vm_user.c: SYSCALL/SYSRET and SSE on this CPU */
void user_fault(struct trapframe *tf) __attribute__((noreturn)); /* vm_user.c */
struct arch_as;
void *arch_user_scratch(struct arch_as *as, uint64_t va, bool create);   /* vm_user.c: pid's page */
struct trapframe *arch_user_regs(void);   /* vm_user.c: the thread's user registers, or NULL */
void arch_syscall(struct trapframe *tf);  /* vm_user.c, from entry.asm */

#define GDT_UDATA  0x1b              /* user data selector, RPL 3 */
#define GDT_UCODE  0x23              /* user code selector, RPL 3 */
#define MSR_STAR   0xc0000081
#define MSR_LSTAR  0xc0000082
#define MSR_FMASK  0xc0000084

#endif
