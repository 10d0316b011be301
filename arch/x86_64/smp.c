/*
 * smp.c - starting the other processors.
 *
 * The BSP finds the processors in the ACPI MADT, copies the start-up code
 * (ap_tramp.asm) to physical 0x8000, maps the first 2 MiB at address 0 for
 * the moment the APs turn paging on, and starts each AP in turn with
 * INIT / start-up IPIs (the second start-up IPI only if the first went
 * unanswered).  An AP sets up its own descriptor tables, per-CPU base and
 * local APIC, says it is up, and becomes its CPU's idle thread.  After the
 * last AP, the low mapping goes away again.
 *
 * Tests: self-tests smp_* (tests/kernel/smp_selftest.c) on 4 CPUs;
 *        tests/e2e/test_smp.py
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "kernel/time.h"

#define TRAMP_PA      0x8000UL
#define PARAM_OFF     0xf00
#define AP_STACK_SIZE (16 * 1024)

extern const uint8_t ap_tramp_start[], ap_tramp_end[];

static volatile int ap_up;
void *smp_ap_stack[MAX_CPUS];               /* each AP's first stack: its idle thread's (fbt_jump.c) */

struct tramp_params {
	uint64_t tp_cr3, tp_stack, tp_entry, tp_cpu;
};

static void delay_ns(uint64_t ns)
{
	uint64_t end = arch_time_ns() + ns;

	while (arch_time_ns() < end)
		__asm__ volatile("pause");
}

/* ap_main: an AP's first C code (from ap_tramp.asm, on the stack the BSP gave it). */
static void NORETURN ap_main(uint64_t id)
{
	arch_cpu_init_ap((int)id);
	lapic_init_ap();
	__atomic_store_n(&ap_up, 1, __ATOMIC_RELEASE);
	sched_start_ap();
}

static bool ap_start(int id, uint32_t hwid)
{
	struct tramp_params *tp = phys_to_virt(TRAMP_PA + PARAM_OFF);
	void *stack = kmalloc(AP_STACK_SIZE);

	if (stack == NULL)
		return false;
	cpus[id].cpu_hwid = hwid;
	smp_ap_stack[id] = stack;
	*tp = (struct tramp_params){ read_cr3(), (uint64_t)stack + AP_STACK_SIZE,
	                             (uint64_t)ap_main, (uint64_t)id };
	ap_up = 0;
	lapic_send_init(hwid);
	delay_ns(10 * NSEC_PER_MSEC);
	for (int tries = 0; tries < 2 && !ap_up; tries++) {
		lapic_send_sipi(hwid, TRAMP_PA >> 12);
		for (int i = 0; i < 200 && !__atomic_load_n(&ap_up, __ATOMIC_ACQUIRE); i++)
			delay_ns(NSEC_PER_MSEC);
	}
	if (!ap_up) {
		smp_ap_stack[id] = NULL;
		kfree(stack);
	}
	return ap_up;
}

int arch_smp_start(void)
{
	uint32_t ids[MAX_CPUS];
	int n = acpi_cpus(ids, MAX_CPUS);
	uint32_t self = lapic_id();

	cpus[0].cpu_hwid = self;
	cpus[0].cpu_online = true;
	if (n <= 1)
		return 1;
	memcpy(phys_to_virt(TRAMP_PA), ap_tramp_start, (size_t)(ap_tramp_end - ap_tramp_start));
	vm_map_low(true);
	for (int i = 0; i < n && ncpus < MAX_CPUS; i++) {
		if (ids[i] == self)
			continue;
		if (ap_start(ncpus, ids[i])) {
			cpus[ncpus].cpu_online = true;
			ncpus++;
		} else {
			kprintf("smp: the processor with APIC id %u did not start\n", ids[i]);
		}
	}
	vm_map_low(false);
	return ncpus;
}
