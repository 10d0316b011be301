/*
 * pci.c - enumerating PCI devices (see pci.h).
 *
 * Theory.  Bus 0 is walked device by device (0..31), and every bus the
 * firmware numbered behind a PCI-to-PCI bridge after it (its secondary bus
 * number): a function is there unless its ID word reads as all ones, and
 * function 0's header type says whether functions 1..7 may be.  Walking
 * all 256 buses blindly took some 15 ms of boot under QEMU's TCG (every
 * configuration access is an exit); following bridges reads a few hundred
 * words.
 * What is found is kept in a fixed table (PCI_MAX_DEVS; more are counted
 * and reported, not kept).  Sub-word accesses read the aligned word and
 * pick the bytes (configuration space is little-endian).
 *
 * Context: as pci.h says; the table is written once at boot, read after.
 *
 * Tests: self-test pci_enumerates (tests/kernel/virtio_selftest.c)
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/pci.h"

static struct pci_dev pci_devs[PCI_MAX_DEVS];
static int pci_ndevs;

uint32_t pci_cfg_read32(const struct pci_dev *pd, int off)
{
	return arch_pci_cfg_read(pd->pd_bus, pd->pd_dev, pd->pd_fn, off & ~3);
}

uint16_t pci_cfg_read16(const struct pci_dev *pd, int off)
{
	return (uint16_t)(pci_cfg_read32(pd, off) >> ((off & 2) * 8));
}

uint8_t pci_cfg_read8(const struct pci_dev *pd, int off)
{
	return (uint8_t)(pci_cfg_read32(pd, off) >> ((off & 3) * 8));
}

void pci_cfg_write16(const struct pci_dev *pd, int off, uint16_t v)
{
	int shift = (off & 2) * 8;
	uint32_t w = pci_cfg_read32(pd, off);

	if ((off & ~3) == PCI_CFG_COMMAND)
		w &= 0x0000ffffu;               /* the Status half's bits clear when written as 1 */
	w = (w & ~(0xffffu << shift)) | (uint32_t)v << shift;
	arch_pci_cfg_write(pd->pd_bus, pd->pd_dev, pd->pd_fn, off & ~3, w);
}

void pci_enable(const struct pci_dev *pd, uint16_t cmd)
{
	uint16_t old = pci_cfg_read16(pd, PCI_CFG_COMMAND);

	pci_cfg_write16(pd, PCI_CFG_COMMAND, (uint16_t)((old | cmd) & ~PCI_CMD_INTX_OFF));
}

/* pci_add: record function fn of bus/dev (its ID word id). */
static void pci_add(int bus, int dev, int fn, uint32_t id)
{
	if (pci_ndevs == PCI_MAX_DEVS) {
		kprintf("pci: %02x:%02x.%d: more than %d devices, not kept\n", bus, dev, fn, PCI_MAX_DEVS);
		return;
	}
	struct pci_dev *pd = &pci_devs[pci_ndevs];
	pd->pd_bus = (uint8_t)bus;
	pd->pd_dev = (uint8_t)dev;
	pd->pd_fn = (uint8_t)fn;
	pd->pd_vendor = (uint16_t)id;
	pd->pd_device = (uint16_t)(id >> 16);
	uint32_t cls = pci_cfg_read32(pd, PCI_CFG_CLASS);
	pd->pd_class = (uint8_t)(cls >> 24);
	pd->pd_subclass = (uint8_t)(cls >> 16);
	pd->pd_progif = (uint8_t)(cls >> 8);
	uint8_t htype = pci_cfg_read8(pd, PCI_CFG_HEADER + 2) & 0x7f;
	if (htype == 0) {                       /* bridges have other fields there */
		uint32_t sub = pci_cfg_read32(pd, PCI_CFG_SUBSYS);
		pd->pd_subvendor = (uint16_t)sub;
		pd->pd_subsys = (uint16_t)(sub >> 16);
		for (int i = 0; i < 6; i++)
			pd->pd_bar[i] = pci_cfg_read32(pd, PCI_CFG_BAR0 + 4 * i);
	}
	uint32_t intr = pci_cfg_read32(pd, PCI_CFG_INTR);
	pd->pd_irq_line = (uint8_t)intr;
	pd->pd_irq_pin = (uint8_t)(intr >> 8);
	pci_ndevs++;
}

/* pci_scan_bus: every device on bus, and the buses behind its PCI-to-PCI bridges. */
static void pci_scan_bus(int bus, uint8_t *seen)
{
	if (seen[bus / 8] & (1u << (bus % 8)))
		return;                                 /* a loop in odd bridge numbering */
	seen[bus / 8] |= (uint8_t)(1u << (bus % 8));
	for (int dev = 0; dev < 32; dev++) {
		if ((arch_pci_cfg_read(bus, dev, 0, PCI_CFG_ID) & 0xffff) == 0xffff)
			continue;
		uint32_t hdr = arch_pci_cfg_read(bus, dev, 0, PCI_CFG_HEADER);
		int nfn = (hdr & (0x80u << 16)) ? 8 : 1;  /* multi-function? */
		for (int fn = 0; fn < nfn; fn++) {
			uint32_t id = arch_pci_cfg_read(bus, dev, fn, PCI_CFG_ID);
			if ((id & 0xffff) == 0xffff)
				continue;
			pci_add(bus, dev, fn, id);
			uint32_t h = arch_pci_cfg_read(bus, dev, fn, PCI_CFG_HEADER);
			if (((h >> 16) & 0x7f) == 1) {          /* a PCI-to-PCI bridge */
				int secondary = (arch_pci_cfg_read(bus, dev, fn, PCI_CFG_BUSES) >> 8) & 0xff;
				if (secondary != 0)
					pci_scan_bus(secondary, seen);
			}
		}
	}
}

void pci_init(void)
{
	uint8_t seen[256 / 8] = { 0 };

	pci_scan_bus(0, seen);
}

int pci_count(void)
{
	return pci_ndevs;
}

const struct pci_dev *pci_get(int i)
{
	return i >= 0 && i < pci_ndevs ? &pci_devs[i] : NULL;
}

const struct pci_dev *pci_find(uint16_t vendor, uint16_t device, int nth)
{
	for (int i = 0; i < pci_ndevs; i++)
		if (pci_devs[i].pd_vendor == vendor && pci_devs[i].pd_device == device && nth-- == 0)
			return &pci_devs[i];
	return NULL;
}
