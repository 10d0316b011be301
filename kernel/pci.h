/*
 * pci.h - the PCI devices found at boot.
 *
 * pci_init walks every bus, device and function's configuration space once
 * (arch_pci_cfg_read) and keeps what it found in a small table; drivers
 * then look their devices up by vendor and device ID.
 *
 *   pci_init()                      enumerate (boot, once)
 *   pci_count(), pci_get(i)         the table, in bus/device/function order
 *   pci_find(vendor, device, nth)   the nth (0, 1, ...) such device, or NULL
 *   pci_cfg_read32/16/8(pd, off)    its configuration space
 *   pci_cfg_write16(pd, off, v)
 *   pci_enable(pd, cmd)             set bits of its Command register
 *
 * Context: pci_init at boot; lookups and config access in thread context
 * (the reads themselves in any).
 *
 * Tests: self-test pci_enumerates (tests/kernel/virtio_selftest.c)
 */
#ifndef SONDE_PCI_H
#define SONDE_PCI_H

#include <stdbool.h>
#include <stdint.h>

#define PCI_MAX_DEVS 64

/* Configuration space offsets and Command bits. */
#define PCI_CFG_ID        0x00          /* vendor (low 16), device (high 16) */
#define PCI_CFG_COMMAND   0x04
#define PCI_CFG_CLASS     0x08          /* revision, prog-if, subclass, class */
#define PCI_CFG_HEADER    0x0c          /* header type in byte 2 (bit 7: multi-function) */
#define PCI_CFG_BAR0      0x10
#define PCI_CFG_BUSES     0x18          /* bridges: primary, secondary, subordinate bus */
#define PCI_CFG_SUBSYS    0x2c          /* subsystem vendor (low 16), subsystem ID (high 16) */
#define PCI_CFG_INTR      0x3c          /* interrupt line (byte 0), pin (byte 1) */
#define PCI_CMD_IO        0x0001
#define PCI_CMD_MEM       0x0002
#define PCI_CMD_MASTER    0x0004
#define PCI_CMD_INTX_OFF  0x0400

struct pci_dev {
	uint8_t pd_bus, pd_dev, pd_fn;
	uint16_t pd_vendor, pd_device;
	uint16_t pd_subvendor, pd_subsys;
	uint8_t pd_class, pd_subclass, pd_progif;
	uint8_t pd_irq_line;                  /* as the firmware set it; 0xff: none */
	uint8_t pd_irq_pin;                   /* 1..4: INTA..INTD; 0: none */
	uint32_t pd_bar[6];                   /* as read or assigned (type bits included) */
	uint64_t pd_bar_size[6];              /* bytes it decodes; 0: none, or not sized (a bridge) */
};

void pci_init(void);
int pci_count(void);
const struct pci_dev *pci_get(int i);
const struct pci_dev *pci_find(uint16_t vendor, uint16_t device, int nth);
uint32_t pci_cfg_read32(const struct pci_dev *pd, int off);
uint16_t pci_cfg_read16(const struct pci_dev *pd, int off);
uint8_t pci_cfg_read8(const struct pci_dev *pd, int off);
void pci_cfg_write16(const struct pci_dev *pd, int off, uint16_t v);
void pci_enable(const struct pci_dev *pd, uint16_t cmd);
/* pci_bar_addr: BAR i's address as assigned (a 64-bit memory BAR's upper half included); *io its space. */
uint64_t pci_bar_addr(const struct pci_dev *pd, int i, bool *io);

#endif
