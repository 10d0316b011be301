/*
 * shell_devices.c - the `devices` command: each attached device as the
 * interrupt probes name it (kernel/devinfo.h), one line each: driver,
 * instance, node name, interrupts handled so far.
 *
 *   sonde# devices
 *   DRIVER   INST NODE          INTERRUPTS
 *   uart        0 serial                 7
 *
 * Thread context; the counts are read without a lock (a moment old).
 *
 * Tests: tests/e2e/test_intr_probes.py
 */
#include "console/shell/shell.h"
#include "kernel/devinfo.h"
#include "kernel/klib.h"

static void device_line(const struct dev_info *dip, void *arg)
{
	(void)arg;
	kprintf("%-8s %4d %-12s %11lu\n", devnamesp[dip->devi_major].dn_name, dip->devi_instance,
	        dip->devi_node_name, (unsigned long)dip->devi_intrs);
}

static int shell_do_devices(int argc, char **argv)
{
	if (argc != 1)
		return shell_usage(argv[0]);
	kprintf("DRIVER   INST NODE          INTERRUPTS\n");
	dev_each(device_line, NULL);
	return SHELL_OK;
}
SHELL_COMMAND(devices, shell_do_devices, "devices",
              "attached devices, as sdt:::interrupt-start names them, and their interrupts");
