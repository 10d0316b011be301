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
 * and reported, not kept).
 *
 * BARs the firmware left unassigned (QEMU's qboot, the firmware of direct
 * boots, assigns no I/O BAR; SeaBIOS and OVMF assign all) get an address
 * here, as any kernel does that cannot count on its firmware: each BAR of a
 * device on bus 0 (not a bridge) is sized by writing all ones with the
 * device's decoding off, then an unassigned one is placed in the machine's
 * window for its space (arch_pci_windows), aligned to its size, above the
 * end of every BAR the firmware placed there, so nothing overlaps.  A
 * 64-bit memory BAR is placed below 4 GiB (its upper half 0).  The
 * interrupt line of a device's pin is the one the machine says
 * (arch_pci_intx_line: on the pc machine, read from the chipset's routing),
 * written back into its Interrupt Line register.  Decoding is
 * left as it was; a driver turns it on (pci_enable).  Devices behind
 * bridges keep what the firmware gave them: their windows would need the
 * bridges programmed too (QEMU's pc machine has none).  Sub-word accesses read the aligned word and
 * pick the bytes (configuration space is little-endian).
 *
 * Context: as pci.h says; the table is written once at boot, read after.
 *
 * Tests: self-tests pci_enumerates, pci_bars_distinct (tests/kernel/virtio_selftest.c);
 *        tests/e2e/test_vioblk.py (pci -v, SeaBIOS and qboot)
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
	if (pd->pd_irq_pin != 0) {              /* the board may know better than the firmware */
		int line = arch_pci_intx_line(bus, dev, fn, pd->pd_irq_pin, pd->pd_irq_line);
		if (line != pd->pd_irq_line) {
			pd->pd_irq_line = (uint8_t)line;
			arch_pci_cfg_write(bus, dev, fn, PCI_CFG_INTR, (intr & ~0xffu) | (uint8_t)line);
		}
	}
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

uint64_t pci_bar_addr(const struct pci_dev *pd, int i, bool *io)
{
	uint32_t v = pd->pd_bar[i];

	*io = v & 1;
	uint64_t addr = v & (*io ? ~3u : ~15u);
	if (!*io && ((v >> 1) & 3) == 2 && i < 5)
		addr |= (uint64_t)pd->pd_bar[i + 1] << 32;
	return addr;
}

/* One BAR of a device: which space, its address as assigned (0: none) and its size. */
struct pci_bar {
	int pb_space;                           /* 0 I/O, 1 memory, -1 none */
	bool pb_wide;                           /* a 64-bit memory BAR (the next slot is its upper half) */
	uint64_t pb_addr, pb_size;
};

static void pci_cfg_write32(const struct pci_dev *pd, int off, uint32_t v)
{
	arch_pci_cfg_write(pd->pd_bus, pd->pd_dev, pd->pd_fn, off, v);
}

/* bar_size: BAR i's space and size, by writing all ones (decoding is off meanwhile). */
static struct pci_bar bar_size(const struct pci_dev *pd, int i)
{
	int off = PCI_CFG_BAR0 + 4 * i;
	uint32_t was = pci_cfg_read32(pd, off);
	struct pci_bar b = { (int)(was & 1) ? 0 : 1, false, 0, 0 };

	pci_cfg_write32(pd, off, 0xffffffffu);
	uint32_t mask = pci_cfg_read32(pd, off);
	pci_cfg_write32(pd, off, was);
	if (b.pb_space == 1 && ((was >> 1) & 3) == 2 && i < 5) {
		b.pb_wide = true;
		uint32_t hi = pci_cfg_read32(pd, off + 4);
		b.pb_addr = (uint64_t)hi << 32;
	}
	uint32_t bits = b.pb_space == 0 ? mask & ~3u : mask & ~15u;
	if (bits == 0) {
		b.pb_space = -1;                /* not implemented */
		return b;
	}
	b.pb_size = (uint64_t)(~bits + 1u) & (b.pb_space == 0 ? 0xffffu : 0xffffffffu);
	b.pb_addr |= was & (b.pb_space == 0 ? ~3u : ~15u);
	return b;
}

/* pci_bars_of: every BAR of pd, sized with pd's decoding off. */
static void pci_bars_of(const struct pci_dev *pd, struct pci_bar bars[6])
{
	uint16_t cmd = pci_cfg_read16(pd, PCI_CFG_COMMAND);

	pci_cfg_write16(pd, PCI_CFG_COMMAND, (uint16_t)(cmd & ~(PCI_CMD_IO | PCI_CMD_MEM)));
	for (int i = 0; i < 6; i++) {
		bars[i] = bar_size(pd, i);
		if (bars[i].pb_wide && i < 5)
			bars[++i] = (struct pci_bar){ -1, false, 0, 0 };   /* its upper half */
	}
	pci_cfg_write16(pd, PCI_CFG_COMMAND, cmd);
}

static bool pci_assignable(const struct pci_dev *pd)
{
	return pd->pd_bus == 0 && pd->pd_class != 0x06 &&   /* not a bridge */
	       (pci_cfg_read8(pd, PCI_CFG_HEADER + 2) & 0x7f) == 0;
}

/* bar_place: an address for b in win (which moves past it), or 0 when the window is full. */
static uint64_t bar_place(struct pci_window *win, const struct pci_bar *b)
{
	uint64_t at = (win->pw_base + b->pb_size - 1) & ~(b->pb_size - 1);

	if (at + b->pb_size > win->pw_limit || at + b->pb_size < at)
		return 0;
	win->pw_base = at + b->pb_size;
	return at;
}

/* pci_assign: addresses for the unassigned BARs of bus 0's devices (the theory above). */
static void pci_assign(void)
{
	struct pci_window win[2];
	static struct pci_bar bars[PCI_MAX_DEVS][6];

	if (!arch_pci_windows(win))
		return;
	for (int d = 0; d < pci_ndevs; d++) {
		if (!pci_assignable(&pci_devs[d]))
			continue;
		pci_bars_of(&pci_devs[d], bars[d]);
		for (int i = 0; i < 6; i++)
			pci_devs[d].pd_bar_size[i] = bars[d][i].pb_space >= 0 ? bars[d][i].pb_size : 0;
		for (int i = 0; i < 6; i++) {           /* the firmware's placements are taken */
			struct pci_bar *b = &bars[d][i];
			struct pci_window *w = b->pb_space >= 0 ? &win[b->pb_space] : NULL;
			if (w != NULL && b->pb_addr != 0 && b->pb_addr < w->pw_limit &&
			    b->pb_addr + b->pb_size > w->pw_base)
				w->pw_base = b->pb_addr + b->pb_size;
		}
	}
	for (int d = 0; d < pci_ndevs; d++) {
		struct pci_dev *pd = &pci_devs[d];
		if (!pci_assignable(pd))
			continue;
		for (int i = 0; i < 6; i++) {
			struct pci_bar *b = &bars[d][i];
			if (b->pb_space < 0 || b->pb_addr != 0)
				continue;
			uint64_t at = bar_place(&win[b->pb_space], b);
			if (at == 0) {
				kprintf("pci: %02x:%02x.%d: BAR%d (%lu bytes): no room in the %s window\n",
				        pd->pd_bus, pd->pd_dev, pd->pd_fn, i, b->pb_size,
				        b->pb_space == 0 ? "I/O" : "memory");
				continue;
			}
			uint32_t flags = pd->pd_bar[i] & (b->pb_space == 0 ? 3u : 15u);
			pci_cfg_write32(pd, PCI_CFG_BAR0 + 4 * i, (uint32_t)at | flags);
			if (b->pb_wide) {
				pci_cfg_write32(pd, PCI_CFG_BAR0 + 4 * (i + 1), 0);
				pd->pd_bar[i + 1] = 0;
			}
			pd->pd_bar[i] = (uint32_t)at | flags;
		}
	}
}

void pci_init(void)
{
	uint8_t seen[256 / 8] = { 0 };

	pci_scan_bus(0, seen);
	pci_assign();
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
