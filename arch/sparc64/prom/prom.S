/*
 * prom.S - sparc64: Sonde's own boot PROM for QEMU's sun4u (-bios), in
 * place of OpenBIOS.
 *
 * What: QEMU loads the kernel ELF into RAM itself (-kernel) and puts its
 * entry, the command line and the -initrd in fw_cfg; OpenBIOS then runs
 * about 1.1 billion instructions (probing PCI, building its device tree,
 * its Forth) before it jumps to the kernel, which uses none of it: the
 * kernel never calls the client interface (bootinfo.c).  This PROM does only
 * what the kernel does rely on, so that a boot costs the kernel's own
 * instructions and not the firmware's (about 3 s of CPU a boot less):
 *
 *   - the I/O window of PCI bridge A (simba, bus 0 device 1 function 1),
 *     behind which the ebus's ISA space sits, opened to [0, 0x8000): at
 *     reset QEMU opens only [0, 0x1000) (the UARTs, fw_cfg), and the
 *     NVRAM clock (0x2000, rtc.c) and the power register (0x7240) are
 *     above it;
 *   - one locked I-TLB entry, virtual 0x40000000 -> physical 0x400000,
 *     4 MiB, as OpenBIOS maps the image (for instruction fetch only; the
 *     D-MMU is on with no entry, and the kernel touches no data before its
 *     own trap table is in, entry.S);
 *   - the register windows clean (nothing for entry.S's flushw to spill),
 *     TL 0, privileged, FPU on, interrupts off (RED_state left), then a
 *     jump to the kernel's entry point (fw_cfg key 0x07) with the caches
 *     and both MMUs turned on in its delay slot: QEMU translates fetches
 *     as soon as the LSU's I-MMU bit is set, RED_state or not, so the
 *     PROM's own code must never be fetched with it on.
 *
 * What not: no client interface, no device tree, no trap table (a trap
 * or a reset other than power-on lands on the RED_state vectors below,
 * which say so on the console and power off, as does a boot without
 * -kernel), no PCI enumeration beyond
 * that one window.  The kernel does not know which firmware ran: the
 * state at _start is OpenBIOS's as far as entry.S looks.
 *
 * Invariant: this code runs in RED_state, physically addressed, from the
 * PROM at 0x1fff0000000, the power-on reset vector at offset 0x20; it
 * uses no memory (no stack, no data), only registers and device ASIs.
 *
 * Context: tools/dtrace and tools/sparc64_run.sh boot with -bios
 * build/sparc64/prom.bin unless SONDE_FIRMWARE=openbios.
 *
 * Tests: make sparc64-check (every boot of it), make sparc64-dtest-check;
 * SONDE_FIRMWARE=openbios runs the same under OpenBIOS (docs/sparc64.md).
 */
	.register %g2, #scratch
	.register %g3, #scratch

#define ASI_PHYS_E    0x15          /* physical, bypass, big-endian */
#define ASI_PHYS_E_L  0x1d          /* physical, bypass, little-endian */
#define ASI_LSU       0x45
#define ASI_IMMU      0x50
#define ASI_ITLB_IN   0x54
#define TAG_ACCESS    0x30
#define PCI_CFG_BRIDGE_A 0x1fe0100091d   /* config space (0x1fe01000000), devfn 0x09, I/O limit (0x1d) */
#define FWCFG_CTL     0x1fe02000510
#define FWCFG_DATA    0x1fe02000511
#define FWCFG_KERNEL_ENTRY 0x07
#define FWCFG_KERNEL_SIZE 0x08
#define UART_THR      0x1fe020003f8
#define POWER_REG     0x1fe02007240
#define IMAGE_VA      0x40000000
#define IMAGE_PA      0x400000
#define TTE_4M_LOCKED 0xe000000000000074 /* valid, 4 MiB, locked, cacheable (P and V), privileged */
#define LSU_ON        0xf                /* I-cache, D-cache, I-MMU, D-MMU */
#define PSTATE_KERNEL 0x14               /* privileged, FPU on, interrupts off */
#define ASI_P         0x80
#define NWINDOWS      8

	.text
	.globl prom_vectors
prom_vectors:
	ba,a	prom_fail                  /* 0x00: reserved */
	.balign 0x20
	ba,a	prom_power_on              /* 0x20: power-on reset */
	.balign 0x20
	ba,a	prom_fail                  /* 0x40: watchdog reset */
	.balign 0x20
	ba,a	prom_fail                  /* 0x60: externally initiated reset */
	.balign 0x20
	ba,a	prom_fail                  /* 0x80: software-initiated reset */
	.balign 0x20
	ba,a	prom_fail                  /* 0xa0: a trap in RED_state */
	.balign 0x20

prom_power_on:
	/* PCI bridge A's I/O limit: 0x70 is [.., 0x7fff]; its base is 0 and its I/O decode on at reset */
	setx	PCI_CFG_BRIDGE_A, %g2, %g1
	mov	0x70, %g2
	stba	%g2, [%g1] ASI_PHYS_E

	/* the image for instruction fetch, as OpenBIOS maps it */
	sethi	%hi(IMAGE_VA), %g1
	mov	TAG_ACCESS, %g2
	stxa	%g1, [%g2] ASI_IMMU
	setx	TTE_4M_LOCKED | IMAGE_PA, %g2, %g1
	stxa	%g1, [%g0] ASI_ITLB_IN
	membar	#Sync

	/* clean windows: entry.S's flushw has nothing to write */
	wrpr	%g0, 0, %cwp
	wrpr	%g0, NWINDOWS - 2, %cansave
	wrpr	%g0, 0, %canrestore
	wrpr	%g0, 0, %otherwin
	wrpr	%g0, NWINDOWS - 1, %cleanwin
	wrpr	%g0, 0, %wstate

	/* the kernel: its size (fw_cfg key 0x08; 0 without -kernel), its entry point (0x07) */
	call	prom_fwcfg_read32
	 mov	FWCFG_KERNEL_SIZE, %o0
	brz,pn	%o1, prom_fail
	 nop
	call	prom_fwcfg_read32
	 mov	FWCFG_KERNEL_ENTRY, %o0
	sethi	%hi(IMAGE_VA - IMAGE_PA), %g1   /* QEMU gives the physical entry, 0x404000: as mapped above */
	add	%o1, %g1, %l0                  /* a local: the globals change set with PSTATE.AG below */

	/*
	 * TL 0, privileged, FPU on, interrupts off: RED_state is left, and
	 * fetches stay physical while the LSU's I-MMU bit is off.  The
	 * caches and both MMUs go on in the jump's delay slot, so the first
	 * translated fetch is the kernel's first instruction.
	 */
	wrpr	%g0, 0, %tl
	wrpr	%g0, PSTATE_KERNEL, %pstate
	wr	%g0, ASI_P, %asi
	clr	%o4                        /* no client interface */
	mov	LSU_ON, %g1
	jmpl	%l0, %g0
	 stxa	%g1, [%g0] ASI_LSU

/*
 * prom_fwcfg_read32: %o1 = the low 32 bits of fw_cfg item %o0 (little-endian).
 * A leaf: no window, no memory; uses %g1, %g2 and %g4.
 */
prom_fwcfg_read32:
	setx	FWCFG_CTL, %g2, %g1
	stha	%o0, [%g1] ASI_PHYS_E_L
	setx	FWCFG_DATA, %g2, %g1
	clr	%o1
	clr	%g4
1:	lduba	[%g1] ASI_PHYS_E, %g2
	sllx	%g2, %g4, %g2
	or	%o1, %g2, %o1
	cmp	%g4, 24
	bne	1b
	 add	%g4, 8, %g4
	retl
	 nop

/* prom_fail: no kernel, or an unexpected reset or trap: said on the console, then power off. */
prom_fail:
	setx	UART_THR, %g2, %g1
	set	prom_fail_msg - prom_vectors, %g3
2:	rd	%pc, %g4
	sub	%g4, 2b - prom_vectors, %g4  /* %g4: prom_vectors' address */
	add	%g4, %g3, %g3
3:	ldub	[%g3], %g2
	brz	%g2, 4f
	 nop
	stba	%g2, [%g1] ASI_PHYS_E
	ba	3b
	 inc	%g3
4:	setx	POWER_REG, %g2, %g1
	sethi	%hi(0x01000000), %g2
	stwa	%g2, [%g1] ASI_PHYS_E
5:	ba	5b
	 nop

prom_fail_msg:
	.asciz	"\r\nsonde prom: no kernel (-kernel), or an unexpected reset or trap in RED_state\r\n"
