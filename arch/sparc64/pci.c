/*
 * pci.c - PCI on sparc64: not yet.
 *
 * QEMU's sun4u has a PCI host bridge (sabre), but Sonde does not drive it:
 * configuration reads find no device (all ones), so kernel/pci.c lists none
 * and there is no disk on sparc64 yet.  The port accessors and the
 * interrupt routing are never reached; they do nothing.
 *
 * Tests: self-test pci_enumerates (finds nothing here)
 */
#include "arch/arch.h"

uint32_t arch_pci_cfg_read(int bus, int dev, int fn, int off)
{
	(void)bus; (void)dev; (void)fn; (void)off;
	return 0xffffffffu;
}

void arch_pci_cfg_write(int bus, int dev, int fn, int off, uint32_t v)
{
	(void)bus; (void)dev; (void)fn; (void)off; (void)v;
}

uint8_t arch_pci_io_read8(uint32_t port) { (void)port; return 0xff; }
uint16_t arch_pci_io_read16(uint32_t port) { (void)port; return 0xffff; }
uint32_t arch_pci_io_read32(uint32_t port) { (void)port; return 0xffffffffu; }
void arch_pci_io_write8(uint32_t port, uint8_t v) { (void)port; (void)v; }
void arch_pci_io_write16(uint32_t port, uint16_t v) { (void)port; (void)v; }
void arch_pci_io_write32(uint32_t port, uint32_t v) { (void)port; (void)v; }

bool arch_pci_intr_on(int line, struct dev_info *dip, void (*fn)(void *arg), void *arg)
{
	(void)line; (void)dip; (void)fn; (void)arg;
	return false;
}

bool arch_pci_windows(struct pci_window win[2])
{
	(void)win;
	return false;
}

int arch_pci_intx_line(int bus, int dev, int fn, int pin, int fw_line)
{
	(void)bus; (void)dev; (void)fn; (void)pin;
	return fw_line;
}
