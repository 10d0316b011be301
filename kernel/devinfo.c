/*
 * devinfo.c - devices as DTrace's interrupt probes name them (see devinfo.h).
 *
 * The drivers' names fill devnamesp[] in the order they first attach; a
 * device's major number is its driver's slot.  Attaching happens at boot,
 * one CPU at a time, so the tables need no lock; interrupt context reads
 * them only after the device's interrupts are on.
 *
 * Tests: tests/d/sdt/tst.interrupt.d; tests/e2e/test_intr_probes.py
 */
#include "kernel/devinfo.h"
#include "kernel/klib.h"
#include "kernel/sdt.h"

#define DEV_MAX 16

struct devnames devnamesp[DEV_MAJORS];
static struct dev_info *devs[DEV_MAX];
static int ndevs;

/* driver_major: the driver's slot in devnamesp[], taken on first use; DEV_MAJORS - 1 when full. */
static major_t driver_major(const char *driver)
{
	major_t m = 0;

	while (m < DEV_MAJORS - 1 && devnamesp[m].dn_name != NULL && strcmp(devnamesp[m].dn_name, driver) != 0)
		m++;
	if (devnamesp[m].dn_name == NULL)
		devnamesp[m].dn_name = driver;
	return m;
}

void dev_attach(struct dev_info *dip, const char *node, const char *driver)
{
	major_t m = driver_major(driver);

	dip->devi_node_name = node;
	dip->devi_binding_name = driver;
	dip->devi_major = m;
	dip->devi_instance = devnamesp[m].dn_instances++;
	if (ndevs < DEV_MAX)
		devs[ndevs++] = dip;
}

void dev_intr(struct dev_info *dip, void (*handler)(void *arg), void *arg)
{
	DTRACE_PROBE1(interrupt__start, dip);
	handler(arg);
	dip->devi_intrs++;
	DTRACE_PROBE1(interrupt__complete, dip);
}

void dev_each(void (*fn)(const struct dev_info *dip, void *arg), void *arg)
{
	for (int i = 0; i < ndevs; i++)
		fn(devs[i], arg);
}
