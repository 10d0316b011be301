/*
 * apic.c - interrupt controllers and time on x86_64.
 *
 * The legacy 8259 PICs are remapped out of the way and masked; interrupts come
 * from the local APIC (its timer, spurious) and the IOAPIC (devices).  QEMU's
 * q35/pc machines place the LAPIC at 0xfee00000 and the IOAPIC at
 * 0xfec00000 (the ACPI MADT says so too; we trust the fixed addresses).
 *
 * Time: the TSC counts ns-ish ticks; both it and the LAPIC timer are
 * calibrated against PIT channel 2 at boot: three 2 ms windows, the median
 * one's rates (6 ms of boot; one 10 ms window was half the boot's
 * instructions under -icount, and one window alone can be far off when the
 * host deschedules the vCPU during it).  arch_time_ns()
 * converts TSC ticks with a 32.32 fixed-point multiplier.  The LAPIC timer
 * runs in one-shot mode, re-armed by the cyclic facility for the earliest
 * expiry.  Under QEMU -icount shift=0 the TSC counts retired instructions,
 * so time (and every figure derived from it) is deterministic.
 *
 * Tests: self-tests cyclic_fires_and_stops, sleep_is_long_enough,
 *        smp_xcall_reaches_every_cpu; tests/d/profile
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/time.h"

#define LAPIC_PHYS      0xfee00000UL
#define IOAPIC_PHYS     0xfec00000UL
#define LAPIC_ID        0x020
#define LAPIC_EOI       0x0b0
#define LAPIC_SVR       0x0f0
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CUR 0x390
#define LAPIC_TIMER_DIV 0x3e0
#define PIT_HZ          1193182UL
#define CALIBRATE_MS    2              /* each window (1000 / CALIBRATE_MS must be whole) */
#define CALIBRATE_WINDOWS 3

static volatile uint32_t *lapic;
static volatile uint32_t *ioapic;
static uint64_t tsc_at_boot;
static uint64_t tsc_mult;               /* ns = ticks * tsc_mult >> 32 */
static uint64_t lapic_hz;               /* timer ticks per second after the divider */

static uint32_t lapic_read(uint32_t reg) { return lapic[reg / 4]; }
static void lapic_write(uint32_t reg, uint32_t v) { lapic[reg / 4] = v; (void)lapic[LAPIC_ID / 4]; }

void pic_disable(void)
{
	outb(0x20, 0x11); outb(0xa0, 0x11);     /* ICW1: init, ICW4 follows */
	outb(0x21, 0xf0); outb(0xa1, 0xf8);     /* ICW2: vectors 0xf0-0xff */
	outb(0x21, 0x04); outb(0xa1, 0x02);     /* ICW3: cascade */
	outb(0x21, 0x01); outb(0xa1, 0x01);     /* ICW4: 8086 mode */
	outb(0x21, 0xff); outb(0xa1, 0xff);     /* mask everything */
}

void lapic_init(void)
{
	lapic = vm_map_mmio(LAPIC_PHYS, PAGE_SIZE);
	wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | (1UL << 11));
	lapic_write(LAPIC_SVR, 0x100 | VEC_SPURIOUS);
	lapic_write(LAPIC_TIMER_DIV, 0x3);      /* divide by 16 */
	lapic_write(LAPIC_LVT_TIMER, 1 << 16);  /* masked until armed */
}

#define LAPIC_ICR_LO    0x300
#define LAPIC_ICR_HI    0x310

uint32_t lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

/* lapic_ipi: send an interrupt command; waits until the LAPIC took it. */
static void lapic_ipi(uint32_t hwid, uint32_t cmd)
{
	for (int i = 0; i < 1000000 && (lapic_read(LAPIC_ICR_LO) & (1u << 12)); i++)
		__asm__ volatile("pause");
	lapic_write(LAPIC_ICR_HI, hwid << 24);
	lapic_write(LAPIC_ICR_LO, cmd);
	for (int i = 0; i < 1000000 && (lapic_read(LAPIC_ICR_LO) & (1u << 12)); i++)
		__asm__ volatile("pause");
}

void lapic_send_init(uint32_t hwid)
{
	lapic_ipi(hwid, 0x4500);                /* INIT, level assert */
}

void lapic_send_sipi(uint32_t hwid, uint32_t page)
{
	lapic_ipi(hwid, 0x4600 | page);         /* start-up at page * 4 KiB */
}

void arch_send_ipi(int cpu, enum arch_ipi kind)
{
	lapic_ipi(cpus[cpu].cpu_hwid, kind == IPI_XCALL ? VEC_XCALL : VEC_RESCHED);
}

/* lapic_init_ap: this AP's LAPIC, with the rates the BSP calibrated. */
void lapic_init_ap(void)
{
	wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | (1UL << 11));
	lapic_write(LAPIC_SVR, 0x100 | VEC_SPURIOUS);
	lapic_write(LAPIC_TIMER_DIV, 0x3);
	lapic_write(LAPIC_LVT_TIMER, VEC_TIMER);
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

static void ioapic_write(uint32_t reg, uint32_t v)
{
	ioapic[0] = reg;
	ioapic[4] = v;
}

void ioapic_init(void)
{
	ioapic = vm_map_mmio(IOAPIC_PHYS, PAGE_SIZE);
	for (int irq = 0; irq < 24; irq++) {
		ioapic_write(0x10 + 2 * irq, 1 << 16); /* masked */
		ioapic_write(0x11 + 2 * irq, 0);
	}
}

void ioapic_route(int irq, int vector)
{
	ioapic_write(0x11 + 2 * irq, 0);        /* destination: APIC id 0 */
	ioapic_write(0x10 + 2 * irq, (uint32_t)vector); /* edge, active high, unmasked */
}

void ioapic_route_level(int irq, int vector)
{
	ioapic_write(0x11 + 2 * irq, 0);        /* destination: APIC id 0 */
	ioapic_write(0x10 + 2 * irq, (uint32_t)vector | (1u << 15)); /* level, active high, unmasked */
}

/* One window: CALIBRATE_MS counted down on PIT channel 2; how far the TSC and LAPIC went. */
static void calibrate_window(uint64_t *tsc, uint32_t *lapic_ticks)
{
	uint32_t count = PIT_HZ * CALIBRATE_MS / 1000;
	uint8_t gate = inb(0x61);

	outb(0x61, (gate & ~0x02) | 0x01);
	outb(0x43, 0xb0);                       /* channel 2, lo/hi, mode 0 */
	outb(0x42, count & 0xff);
	outb(0x42, count >> 8);
	gate = inb(0x61);
	outb(0x61, gate & ~0x01);
	outb(0x61, gate | 0x01);                /* rising gate edge starts the count */
	lapic_write(LAPIC_TIMER_INIT, 0xffffffff);
	uint64_t t0 = rdtsc();
	uint32_t l0 = lapic_read(LAPIC_TIMER_CUR);
	while (!(inb(0x61) & 0x20))
		;
	uint64_t t1 = rdtsc();
	uint32_t l1 = lapic_read(LAPIC_TIMER_CUR);
	lapic_write(LAPIC_TIMER_INIT, 0);
	*tsc = t1 - t0;
	*lapic_ticks = l0 - l1;
}

/*
 * timer_calibrate: CALIBRATE_WINDOWS windows, and the rates of the median
 * one (by TSC ticks).  Under TCG a vCPU is a host thread: one descheduled
 * while the PIT runs out sees a long window, so one window alone may be
 * far off on a busy host; the median of three is off only if two are.
 */
static void timer_calibrate(void)
{
	uint64_t tsc[CALIBRATE_WINDOWS];
	uint32_t lap[CALIBRATE_WINDOWS];

	for (int i = 0; i < CALIBRATE_WINDOWS; i++) {
		calibrate_window(&tsc[i], &lap[i]);
		for (int j = i; j > 0 && tsc[j] < tsc[j - 1]; j--) {   /* insertion sort */
			uint64_t t = tsc[j]; tsc[j] = tsc[j - 1]; tsc[j - 1] = t;
			uint32_t l = lap[j]; lap[j] = lap[j - 1]; lap[j - 1] = l;
		}
	}
	uint64_t tsc_hz = tsc[CALIBRATE_WINDOWS / 2] * (1000 / CALIBRATE_MS);
	lapic_hz = (uint64_t)lap[CALIBRATE_WINDOWS / 2] * (1000 / CALIBRATE_MS);
	if (tsc_hz == 0 || lapic_hz == 0)
		panic("timer: calibration failed (tsc %lu Hz, lapic %lu Hz)", tsc_hz, lapic_hz);
	tsc_mult = (NSEC_PER_SEC << 32) / tsc_hz;     /* < 2^64 for any tsc_hz >= 1 */
}

void arch_intr_init(void)
{
	tsc_at_boot = rdtsc();
	pic_disable();
	lapic_init();
	ioapic_init();
	timer_calibrate();
	lapic_write(LAPIC_LVT_TIMER, VEC_TIMER); /* one-shot, unmasked */
}

uint64_t arch_time_ns(void)
{
	if (tsc_mult == 0)
		return 0;
	return (uint64_t)(((unsigned __int128)(rdtsc() - tsc_at_boot) * tsc_mult) >> 32);
}

uint64_t arch_cycles(void)
{
	return rdtsc();
}

void arch_timer_oneshot(uint64_t delta_ns)
{
	uint64_t count = 0xffffffffUL;

	if (delta_ns < 100 * NSEC_PER_SEC)       /* no 64-bit overflow below 100 s */
		count = delta_ns * lapic_hz / NSEC_PER_SEC;

	if (count == 0)
		count = 1;
	if (count > 0xffffffffUL)
		count = 0xffffffffUL;
	lapic_write(LAPIC_TIMER_INIT, (uint32_t)count);
}
