/*
 * shell_pci.c - the `pci` command: the PCI functions found at boot
 * (kernel/pci.h), one line each, and the disks registered on them
 * (kernel/blkdev.h): statname, size, read-only, path.
 *
 *   sonde# pci [-v]
 *   BDF      VENDOR:DEV CLASS IRQ
 *   00:00.0  8086:1237  0600    -
 *   00:04.0  1af4:1001  0100   11
 *   DISK     SECTORS    MODE PATH
 *   vioblk0  32768      rw   /devices/pci@0,0/pci1af4,2@4:a
 *
 * -v adds each device's BARs under it: the space, the address (as the
 * firmware or kernel/pci.c placed it) and the size decoded, for the devices
 * kernel/pci.c sized (bus 0, not bridges):
 *
 *            BAR0 io   0xc000 64
 *            BAR4 mem  0xe0004000 16384
 *
 * Thread context; the tables are fixed after boot.
 *
 * Tests: tests/e2e/test_vioblk.py
 */
#include "console/shell/shell.h"
#include "kernel/blkdev.h"
#include "kernel/klib.h"
#include "kernel/pci.h"

static void disk_line(struct blkdev *bd, void *arg)
{
	(void)arg;
	kprintf("%-8s %-10lu %-4s %s\n", bd->bd_statname, (unsigned long)bd->bd_nsect,
	        bd->bd_readonly ? "ro" : "rw", bd->bd_pathname);
}

static void bar_lines(const struct pci_dev *pd)
{
	for (int i = 0; i < 6; i++) {
		if (pd->pd_bar_size[i] == 0)
			continue;
		bool io;
		uint64_t addr = pci_bar_addr(pd, i, &io);
		kprintf("         BAR%d %-4s %#lx %lu\n", i, io ? "io" : "mem", addr, pd->pd_bar_size[i]);
	}
}

static int shell_do_pci(int argc, char **argv)
{
	bool verbose = argc == 2 && strcmp(argv[1], "-v") == 0;

	if (argc != 1 && !verbose)
		return shell_usage(argv[0]);
	kprintf("BDF      VENDOR:DEV CLASS IRQ\n");
	for (int i = 0; i < pci_count(); i++) {
		const struct pci_dev *pd = pci_get(i);
		char irq[8] = "-";
		if (pd->pd_irq_pin != 0 && pd->pd_irq_line != 0xff)
			ksnprintf(irq, sizeof irq, "%d", pd->pd_irq_line);
		kprintf("%02x:%02x.%d  %04x:%04x  %02x%02x  %4s\n", pd->pd_bus, pd->pd_dev, pd->pd_fn,
		        pd->pd_vendor, pd->pd_device, pd->pd_class, pd->pd_subclass, irq);
		if (verbose)
			bar_lines(pd);
	}
	if (blk_first() != NULL) {
		kprintf("DISK     SECTORS    MODE PATH\n");
		blk_each(disk_line, NULL);
	}
	return SHELL_OK;
}
SHELL_COMMAND(pci, shell_do_pci, "pci [-v]", "the PCI devices found at boot (-v: their BARs), and the disks on them");
