/*
 * devinfo.h - devices as DTrace's interrupt probes name them.
 *
 * Each device a driver attaches is a struct dev_info holding the members of
 * Solaris's (<sys/ddi_impldefs.h>) that D programs read: devi_node_name,
 * devi_binding_name, devi_instance, and devi_major, the driver's index in
 * devnamesp[], whose dn_name is the driver's name.  So the way the DTrace
 * Guide's readers name an interrupting device works unchanged:
 *
 *   sdt:::interrupt-start
 *   {
 *           this->devi = (struct dev_info *)arg0;
 *           @[stringof(`devnamesp[this->devi->devi_major].dn_name),
 *               this->devi->devi_instance] = count();
 *   }
 *
 * dev_attach(dip, node, driver): number the device among its driver's
 * (instance 0, 1, ...) and give it the driver's major number (boot, before
 * its interrupts are on).
 * dev_intr(dip, handler, arg): run a device's interrupt handler, handler(arg)
 * (arg: the driver's per-device state, or NULL), between the sdt
 * probes interrupt-start and interrupt-complete, each with arg0 dip, as the
 * Guide documents them ("immediately before calling into a device's
 * interrupt handler", "immediately after returning from" it).  The clock
 * and the cross-call interrupt are not devices: they fire neither, but are
 * counted in sysinfo's intr like every interrupt.  Interrupt context.
 *
 * What not: no device tree (no parent, child or sibling links), no
 * properties, no detaching.
 *
 * Tests: tests/d/sdt/tst.interrupt.d; tests/e2e/test_intr_probes.py
 */
#ifndef SONDE_DEVINFO_H
#define SONDE_DEVINFO_H

#include <stdint.h>

typedef uint32_t major_t;

struct dev_info {
	const char *devi_node_name;       /* what the device is: "serial" */
	const char *devi_binding_name;    /* the driver bound to it: "uart" */
	int devi_instance;                /* its number among that driver's devices */
	major_t devi_major;               /* the driver: devnamesp[devi_major] */
	uint64_t devi_intrs;              /* interrupts handled (Sonde's own) */
};

struct devnames {
	const char *dn_name;              /* the driver's name */
	int dn_instances;                 /* devices attached to it so far */
};

#define DEV_MAJORS 16
extern struct devnames devnamesp[DEV_MAJORS];

void dev_attach(struct dev_info *dip, const char *node, const char *driver);
void dev_intr(struct dev_info *dip, void (*handler)(void *arg), void *arg);

/* dev_each: call fn for every attached device, in attach order (the devices command). */
void dev_each(void (*fn)(const struct dev_info *dip, void *arg), void *arg);

#endif
