/*
 * gdt.c - descriptor tables and the per-CPU base.
 *
 * Long mode ignores most of segmentation, but the CPU still needs a GDT with
 * a 64-bit code segment, a data segment and a TSS, whose interrupt stack
 * table gives double faults and NMIs a stack of their own (a kernel stack
 * overflow then still prints a report instead of triple-faulting).  The IDT
 * points every vector at its stub in trap.asm.  GS base holds &cpus[id]
 * while the CPU is in the kernel (entry.asm swaps it with the user's, 0, on
 * the way to and from user mode); TSS rsp0 is the kernel stack of the user
 * thread running (gdt_set_kstack).
 *
 * Tests: tests/e2e/test_boot.py, tests/e2e/test_proc.py (ring 3 and back)
 */
#include "arch/x86_64/x86.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include <stddef.h>

#define GDT_KCODE  0x08
#define GDT_KDATA  0x10
#define GDT_TSS    0x28
#define IST_STACK_SIZE 8192

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct idt_gate {
	uint16_t off_lo;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t off_mid;
	uint32_t off_hi;
	uint32_t zero;
} __attribute__((packed));

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

struct cpu_arch {
	uint64_t gdt[7];
	struct tss tss;
	uint8_t ist_df[IST_STACK_SIZE] __attribute__((aligned(16)));
	uint8_t ist_nmi[IST_STACK_SIZE] __attribute__((aligned(16)));
};

static struct cpu_arch cpu_arch0;
static struct idt_gate idt[256];
struct cpu cpus[MAX_CPUS];
int ncpus = 1;

static void gdt_set_tss(uint64_t *gdt, struct tss *tss)
{
	uint64_t base = (uint64_t)tss, limit = sizeof(*tss) - 1;

	gdt[5] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89UL << 40) |
	         (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[6] = base >> 32;
}

static void gdt_load(struct cpu_arch *ca)
{
	struct desc_ptr p = { sizeof(ca->gdt) - 1, (uint64_t)ca->gdt };

	ca->gdt[0] = 0;
	ca->gdt[1] = 0x00af9a000000ffffUL;          /* kernel code, 64-bit */
	ca->gdt[2] = 0x00cf92000000ffffUL;          /* kernel data */
	ca->gdt[3] = 0x00cff2000000ffffUL;          /* user data (GDT_UDATA) */
	ca->gdt[4] = 0x00affa000000ffffUL;          /* user code, 64-bit (GDT_UCODE) */
	ca->tss.ist[0] = (uint64_t)(ca->ist_df + IST_STACK_SIZE);
	ca->tss.ist[1] = (uint64_t)(ca->ist_nmi + IST_STACK_SIZE);
	ca->tss.iomap_base = sizeof(ca->tss);
	gdt_set_tss(ca->gdt, &ca->tss);
	__asm__ volatile("lgdt %0" :: "m"(p));
	__asm__ volatile(
		"mov %0, %%ds; mov %0, %%es; mov %0, %%ss\n"
		"pushq %1; leaq 1f(%%rip), %%rax; pushq %%rax; lretq; 1:"
		:: "r"((uint64_t)GDT_KDATA), "i"(GDT_KCODE) : "rax", "memory");
	__asm__ volatile("ltr %w0" :: "r"((uint16_t)GDT_TSS));
}

static void idt_set(int vec, void *handler, int ist)
{
	uint64_t off = (uint64_t)handler;

	idt[vec] = (struct idt_gate){
		.off_lo = off & 0xffff, .selector = GDT_KCODE, .ist = ist,
		.type_attr = 0x8e,                      /* present, DPL 0, interrupt gate */
		.off_mid = (off >> 16) & 0xffff, .off_hi = off >> 32,
	};
}

static void idt_load(void)
{
	struct desc_ptr p = { sizeof(idt) - 1, (uint64_t)idt };

	__asm__ volatile("lidt %0" :: "m"(p));
}

/* The syscall entry (entry.asm) reads these two through GS at fixed offsets. */
_Static_assert(offsetof(struct cpu, cpu_kstack_top) == 8, "entry.asm: cpu_kstack_top");
_Static_assert(offsetof(struct cpu, cpu_user_sp) == 16, "entry.asm: cpu_user_sp");

/* gdt_set_kstack: the stack that interrupts and system calls from user mode start on, this CPU. */
void gdt_set_kstack(uint64_t top)
{
	struct cpu *c = curcpu();

	((struct cpu_arch *)c->cpu_arch)->tss.rsp[0] = top;
	c->cpu_kstack_top = top;
}

struct cpu *curcpu(void)
{
	struct cpu *c;

	__asm__ volatile("movq %%gs:0, %0" : "=r"(c));
	return c;
}

int arch_cpu_id(void)
{
	return curcpu()->cpu_id;
}

/* arch_curthread: one load through GS (arch.h: no preemption between the CPU and its thread). */
struct thread *arch_curthread(void)
{
	struct thread *t;

	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(t) : "i"(offsetof(struct cpu, cpu_thread)));
	return t;
}

/* arch_cpu_init_ap: an AP's own GDT, TSS and IST stacks; the shared IDT; its GS base. */
void arch_cpu_init_ap(int id)
{
	struct cpu *c = &cpus[id];
	struct cpu_arch *ca = kzalloc(sizeof(*ca));

	if (ca == NULL)
		panic("smp: no memory for cpu %d's descriptor tables", id);
	gdt_load(ca);
	idt_load();
	c->cpu_self = c;
	c->cpu_id = id;
	c->cpu_arch = ca;
	wrmsr(MSR_GS_BASE, (uint64_t)c);
	syscall_init_cpu();
}

void arch_cpu_init(void)
{
	struct cpu *c = &cpus[0];

	gdt_load(&cpu_arch0);
	for (int v = 0; v < 256; v++)
		idt_set(v, trap_vectors[v], v == 8 ? 1 : v == 2 ? 2 : 0);
	idt[3].type_attr = 0xee;                    /* int3 from user mode is #BP (pid probes), not #GP */
	idt_load();
	c->cpu_self = c;
	c->cpu_id = 0;
	c->cpu_arch = &cpu_arch0;
	wrmsr(MSR_GS_BASE, (uint64_t)c);
	syscall_init_cpu();
}
