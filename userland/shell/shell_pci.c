/*
 * shell_pci.c - the `pci` command: the PCI functions found at boot
 * (kernel/pci.h), one line each, and the disks registered on them
 * (kernel/blkdev.h): statname, size, read-only, path.
 *
 *   sonde# pci
 *   BDF      VENDOR:DEV CLASS IRQ
 *   00:00.0  8086:1237  0600    -
 *   00:04.0  1af4:1001  0100   11
 *   DISK     SECTORS    MODE PATH
 *   vioblk0  32768      rw   /devices/pci@0,0/pci1af4,2@4:a
 *
 * Thread context; the tables are fixed after boot.
 *
 * Tests: tests/e2e/test_vioblk.py
 */
#include "userland/shell/shell.h"
#include "kernel/blkdev.h"
#include "kernel/klib.h"
#include "kernel/pci.h"

static void disk_line(struct blkdev *bd, void *arg)
{
	(void)arg;
	kprintf("%-8s %-10lu %-4s %s\n", bd->bd_statname, (unsigned long)bd->bd_nsect,
	        bd->bd_readonly ? "ro" : "rw", bd->bd_pathname);
}

static int shell_do_pci(int argc, char **argv)
{
	if (argc != 1)
		return shell_usage(argv[0]);
	kprintf("BDF      VENDOR:DEV CLASS IRQ\n");
	for (int i = 0; i < pci_count(); i++) {
		const struct pci_dev *pd = pci_get(i);
		char irq[8] = "-";
		if (pd->pd_irq_pin != 0 && pd->pd_irq_line != 0xff)
			ksnprintf(irq, sizeof irq, "%d", pd->pd_irq_line);
		kprintf("%02x:%02x.%d  %04x:%04x  %02x%02x  %4s\n", pd->pd_bus, pd->pd_dev, pd->pd_fn,
		        pd->pd_vendor, pd->pd_device, pd->pd_class, pd->pd_subclass, irq);
	}
	if (blk_first() != NULL) {
		kprintf("DISK     SECTORS    MODE PATH\n");
		blk_each(disk_line, NULL);
	}
	return SHELL_OK;
}
SHELL_COMMAND(pci, shell_do_pci, "pci", "the PCI devices found at boot, and the disks on them");
