/*
 * pci.c - PCI configuration space, I/O BARs and INTx interrupts on x86_64.
 *
 * Configuration space is reached through mechanism #1: the address of a
 * 32-bit word (enable bit, bus, device, function, offset) goes to port
 * 0xcf8, the word itself through 0xcfc.  The pair is one shared register,
 * so a spinlock keeps two CPUs' accesses apart.
 *
 * Interrupts.  On QEMU's pc machine (i440fx, PIIX3) a PCI device's INTx pin
 * reaches the chipset's PIRQ links, which the firmware (SeaBIOS, OVMF)
 * steers to an ISA IRQ and writes into the device's Interrupt Line
 * register; QEMU wires ISA IRQ n to IOAPIC pin n as well, and the ACPI
 * tables describe those links as level-triggered, active high.  So line n
 * becomes IOAPIC pin n, level-triggered, on vector VEC_PCI + n.  Lines are
 * shared (four links for every slot), so each line keeps a short list of
 * handlers and calls them all; each asks its own device.  A level
 * interrupt stays asserted until the handler quiets the device: the
 * LAPIC's EOI (trap.c) then lets the IOAPIC deliver again if it is still
 * high.
 *
 * Which line a pin reaches: on the pc machine, pin P (1..4) of the device in
 * slot S on bus 0 drives the PIIX3's PIRQ[(S - 1 + P - 1) mod 4] (QEMU's
 * slot rotation), and the PIIX3's PIRQ route registers (bytes 0x60..0x63 of
 * its configuration space, device 00:01.0; bit 7 set: not routed) say which
 * ISA IRQ each PIRQ is steered to.  SeaBIOS writes that IRQ into the
 * device's Interrupt Line register; qboot writes another (its own
 * rotation), so on this board the line is read from the chipset
 * (arch_pci_intx_line) and the register corrected.
 *
 * Windows for BARs the firmware left unassigned (qboot, QEMU's minimal
 * firmware for direct boots, assigns no I/O BAR): I/O ports 0xc000-0xffff,
 * above the ISA and chipset ports, and memory 0xe0000000 up to the IOAPIC
 * at 0xfec00000: on the pc machine with up to 3.5 GiB of memory that is
 * inside the PCI hole below 4 GiB.
 *
 * Context: configuration and port accesses in any context;
 * arch_pci_intr_on at boot; pci_intr in interrupt context.
 *
 * Tests: self-tests pci_enumerates, blk_virtio (tests/kernel/virtio_selftest.c)
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "kernel/devinfo.h"
#include "kernel/klib.h"
#include "kernel/lock.h"

#define PCI_ADDR 0xcf8
#define PCI_DATA 0xcfc
#define PCI_LINE_HANDLERS 4

static spinlock_t pci_cfg_lock = SPINLOCK_INIT("pci cfg");

struct pci_handler {
	struct dev_info *ph_dip;
	void (*ph_fn)(void *arg);
	void *ph_arg;
};

static struct pci_handler pci_handlers[VEC_PCI_LINES][PCI_LINE_HANDLERS];
static int pci_nhandlers[VEC_PCI_LINES];

static uint32_t cfg_address(int bus, int dev, int fn, int off)
{
	return 0x80000000u | (uint32_t)(bus & 0xff) << 16 | (uint32_t)(dev & 0x1f) << 11 |
	       (uint32_t)(fn & 7) << 8 | (uint32_t)(off & 0xfc);
}

uint32_t arch_pci_cfg_read(int bus, int dev, int fn, int off)
{
	spin_lock(&pci_cfg_lock);
	outl(PCI_ADDR, cfg_address(bus, dev, fn, off));
	uint32_t v = inl(PCI_DATA);
	spin_unlock(&pci_cfg_lock);
	return v;
}

void arch_pci_cfg_write(int bus, int dev, int fn, int off, uint32_t v)
{
	spin_lock(&pci_cfg_lock);
	outl(PCI_ADDR, cfg_address(bus, dev, fn, off));
	outl(PCI_DATA, v);
	spin_unlock(&pci_cfg_lock);
}

#define PIIX_PIRQ_ROUTE 0x60
#define ID_I440FX       0x12378086u     /* device 1237, vendor 8086 (Intel) */
#define ID_PIIX3_ISA    0x70008086u

int arch_pci_intx_line(int bus, int dev, int fn, int pin, int fw_line)
{
	(void)fn;
	if (bus != 0 || dev == 0 || pin < 1 || pin > 4 ||
	    arch_pci_cfg_read(0, 0, 0, 0) != ID_I440FX || arch_pci_cfg_read(0, 1, 0, 0) != ID_PIIX3_ISA)
		return fw_line;
	int pirq = (dev - 1 + pin - 1) & 3;
	uint8_t route = (uint8_t)(arch_pci_cfg_read(0, 1, 0, PIIX_PIRQ_ROUTE) >> (8 * pirq));
	return (route & 0x80) ? fw_line : route & 0x0f;
}

bool arch_pci_windows(struct pci_window win[2])
{
	win[0] = (struct pci_window){ 0xc000, 0x10000 };
	win[1] = (struct pci_window){ 0xe0000000u, 0xfec00000u };
	return true;
}

uint8_t arch_pci_io_read8(uint32_t port) { return inb((uint16_t)port); }
uint16_t arch_pci_io_read16(uint32_t port) { return inw((uint16_t)port); }
uint32_t arch_pci_io_read32(uint32_t port) { return inl((uint16_t)port); }
void arch_pci_io_write8(uint32_t port, uint8_t v) { outb((uint16_t)port, v); }
void arch_pci_io_write16(uint32_t port, uint16_t v) { outw((uint16_t)port, v); }
void arch_pci_io_write32(uint32_t port, uint32_t v) { outl((uint16_t)port, v); }

bool arch_pci_intr_on(int line, struct dev_info *dip, void (*fn)(void *arg), void *arg)
{
	if (line <= 0 || line >= VEC_PCI_LINES || line == 2) {   /* 0xff: none; 2: the cascade */
		kprintf("pci: interrupt line %d is not usable\n", line);
		return false;
	}
	int n = pci_nhandlers[line];
	if (n == PCI_LINE_HANDLERS) {
		kprintf("pci: interrupt line %d: too many devices (%d)\n", line, PCI_LINE_HANDLERS);
		return false;
	}
	pci_handlers[line][n] = (struct pci_handler){ dip, fn, arg };
	__atomic_store_n(&pci_nhandlers[line], n + 1, __ATOMIC_RELEASE);
	if (n == 0)
		ioapic_route_level(line, VEC_PCI + line);
	return true;
}

void pci_intr(int line)
{
	int n = __atomic_load_n(&pci_nhandlers[line], __ATOMIC_ACQUIRE);

	for (int i = 0; i < n; i++) {
		struct pci_handler *h = &pci_handlers[line][i];
		dev_intr(h->ph_dip, h->ph_fn, h->ph_arg);
	}
}
