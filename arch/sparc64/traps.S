/*
 * traps.S - sparc64: the trap table, register-window spill and fill, the
 * MMU's TLB-miss handlers, and the path from a trap to C.
 *
 * The table (%tba) has 512 entries of 8 instructions for traps taken at
 * TL = 0 and as many for TL > 0 (a trap inside a trap handler: a spill, a
 * fill or a TLB miss while the handler saves state).  Both halves are the
 * same code.  The kernel runs at TL 0, privileged, with the normal globals;
 * the hardware switches to the alternate globals for a trap, to the MMU
 * globals for a TLB miss.  Only the kernel runs: there is no user mode yet.
 *
 * Windows: spill_0_normal and fill_0_normal move one window to or from its
 * save area at %sp + 2047 (the 64-bit ABI's biased stack); clean_window
 * zeroes a window before the kernel uses it.
 *
 * TLB misses are filled with no table for two regions, whose translations
 * are arithmetic: the image, 8 KiB pages at physical = virtual - KERNEL_VMA
 * (text executable and read-only, the only I-MMU region; data and bss
 * writable), and the direct map, 4 MiB pages, DMAP_BASE + pa up to
 * sparc64_mmu_page.mp_ram_top.  The heap's large blocks, [KHEAP_BASE,
 * + 4 GiB), are 8 KiB pages in a two-level table (vm.c): mp_kheap_dir holds the
 * physical address of each leaf page of 1024 TTEs, each leaf maps 8 MiB.
 * Any other address, or a missing entry, is a fault: trap_generic with the
 * trap type of the miss, and C decides (a fix-up, or a panic).
 *
 * A trap at TL > 1 that reaches trap_generic (a spill or fill that faulted:
 * a kernel stack overflow) continues on a panic stack, to the fatal report.
 *
 * trap_generic (every other trap): a new window and a struct trap_frame
 * (sparc64.h) on the trapped code's stack, the trap registers and the
 * trapped globals saved there, TL 0, interrupts off, then
 * sparc64_trap(frame).  Returning, it restores what the frame holds (C may
 * change tpc/tnpc: a fix-up, or skipping a trap instruction), goes back to
 * TL 1 and the trapped window, puts the current window number in TSTATE (a
 * context switch in the handler may have moved the windows) and retries.
 *
 * Tests: self-tests safe_read_survives_faults, vm_wx under make sparc64-check
 */
	.register %g2, #scratch
	.register %g3, #scratch
	.register %g6, #scratch
	.register %g7, #scratch

#define BIAS       2047
#define MINFRAME   176
#define TF_SIZE    192
#define TF_G       0
#define TF_O       64
#define TF_TSTATE  128
#define TF_TPC     136
#define TF_TNPC    144
#define TF_Y       152
#define TF_TT      160
#define TF_SFAR    168

#define ASI_PHYS   0x14
#define ASI_IMMU   0x50
#define ASI_ITLB_DATA_IN 0x54
#define ASI_DMMU   0x58
#define ASI_DTLB_DATA_IN 0x5c
#define TAG_ACCESS 0x30
#define SFAR       0x20

#define PSTATE_KERN    0x14     /* PRIV | PEF */
#define PSTATE_KERN_AG 0x15     /* PRIV | PEF | AG */

/* Valid, 4 MiB or 8 KiB, cacheable, privileged (+ writable for data). */
#define TTE4M_HI   0xe000      /* bits 63..48: V, size 4M */
#define TTE8K_HI   0x8000      /* V, size 8K */
#define TTE_TEXT   0x34
#define TTE_L      0x40
#define TTE_DATA   0x36
#define IMAGE_VA   0x40000000
#define KERNEL_VMA_VAL 0x3fc00000

/* A 32-bit address (the image, -mcmodel=medlow) into a register. */
#define SETX32(sym, reg) sethi %hi(sym), reg; or reg, %lo(sym), reg

	.macro GEN n
	.rept \n
	ba,a,pt	%xcc, trap_generic
	 nop
	nop; nop; nop; nop; nop; nop
	.endr
	.endm

	.macro SPILL
	stx	%l0, [%sp + BIAS + 0x00]
	stx	%l1, [%sp + BIAS + 0x08]
	stx	%l2, [%sp + BIAS + 0x10]
	stx	%l3, [%sp + BIAS + 0x18]
	stx	%l4, [%sp + BIAS + 0x20]
	stx	%l5, [%sp + BIAS + 0x28]
	stx	%l6, [%sp + BIAS + 0x30]
	stx	%l7, [%sp + BIAS + 0x38]
	stx	%i0, [%sp + BIAS + 0x40]
	stx	%i1, [%sp + BIAS + 0x48]
	stx	%i2, [%sp + BIAS + 0x50]
	stx	%i3, [%sp + BIAS + 0x58]
	stx	%i4, [%sp + BIAS + 0x60]
	stx	%i5, [%sp + BIAS + 0x68]
	stx	%i6, [%sp + BIAS + 0x70]
	stx	%i7, [%sp + BIAS + 0x78]
	saved
	retry
	.rept 14
	nop
	.endr
	.endm

	.macro FILL
	ldx	[%sp + BIAS + 0x00], %l0
	ldx	[%sp + BIAS + 0x08], %l1
	ldx	[%sp + BIAS + 0x10], %l2
	ldx	[%sp + BIAS + 0x18], %l3
	ldx	[%sp + BIAS + 0x20], %l4
	ldx	[%sp + BIAS + 0x28], %l5
	ldx	[%sp + BIAS + 0x30], %l6
	ldx	[%sp + BIAS + 0x38], %l7
	ldx	[%sp + BIAS + 0x40], %i0
	ldx	[%sp + BIAS + 0x48], %i1
	ldx	[%sp + BIAS + 0x50], %i2
	ldx	[%sp + BIAS + 0x58], %i3
	ldx	[%sp + BIAS + 0x60], %i4
	ldx	[%sp + BIAS + 0x68], %i5
	ldx	[%sp + BIAS + 0x70], %i6
	ldx	[%sp + BIAS + 0x78], %i7
	restored
	retry
	.rept 14
	nop
	.endr
	.endm

	.macro CLEAN
	clr %l0; clr %l1; clr %l2; clr %l3; clr %l4; clr %l5; clr %l6; clr %l7
	clr %o0; clr %o1; clr %o2; clr %o3; clr %o4; clr %o5; clr %o6; clr %o7
	rdpr	%cleanwin, %g1
	inc	%g1
	wrpr	%g1, 0, %cleanwin
	retry
	.rept 12
	nop
	.endr
	.endm

	.macro MISS handler
	ba,a,pt	%xcc, \handler
	 nop
	.rept 30
	nop
	.endr
	.endm

	/* One half of the table: 512 entries. */
	.macro HALF
	GEN	0x24                    /* 0x000: resets, illegal instruction, ... */
	CLEAN                           /* 0x024-0x027: clean_window */
	GEN	0x3c                    /* 0x028: faults, interrupts 0x41-0x4f, vector 0x60 */
	MISS	itlb_miss               /* 0x064: fast_instruction_access_MMU_miss */
	MISS	dtlb_miss               /* 0x068: fast_data_access_MMU_miss */
	GEN	4                       /* 0x06c: fast_data_access_protection */
	GEN	0x10                    /* 0x070 */
	SPILL                           /* 0x080: spill_0_normal */
	GEN	0x3c                    /* 0x084: other spills */
	FILL                            /* 0x0c0: fill_0_normal */
	GEN	0x13c                   /* 0x0c4: other fills, trap instructions */
	.endm

	.section .text.traps, "ax"
	.balign 32768
	.globl sparc64_trap_table
sparc64_trap_table:
	HALF
	HALF

/*
 * The I-TLB miss: only the image's text is executable.  MMU globals.
 */
itlb_miss:
	mov	TAG_ACCESS, %g1
	ldxa	[%g1] ASI_IMMU, %g2
	srlx	%g2, 13, %g2
	sllx	%g2, 13, %g2                    /* the 8 KiB page */
	SETX32(_text_start, %g3)
	cmp	%g2, %g3
	blu,pn	%xcc, 1f
	 nop
	SETX32(_text_end, %g3)
	cmp	%g2, %g3
	bgeu,pn	%xcc, 1f
	 nop
	SETX32(KERNEL_VMA_VAL, %g3)
	sub	%g2, %g3, %g4                   /* pa */
	sethi	%hi(TTE8K_HI << 16), %g5
	sllx	%g5, 32, %g5
	or	%g4, %g5, %g4
	or	%g4, TTE_TEXT, %g4
	stxa	%g4, [%g0] ASI_ITLB_DATA_IN
	retry
1:	ba,a,pt	%xcc, trap_generic

/*
 * The D-TLB miss: the image, the direct map, the heap's table.  MMU globals.
 */
dtlb_miss:
	mov	TAG_ACCESS, %g1
	ldxa	[%g1] ASI_DMMU, %g2             /* va | context */
	srlx	%g2, 13, %g2
	sllx	%g2, 13, %g2                    /* the 8 KiB page */
	SETX32(IMAGE_VA, %g3)
	cmp	%g2, %g3
	blu,pn	%xcc, 4f
	 nop
	SETX32(_kernel_end, %g3)
	cmp	%g2, %g3
	bgeu,pn	%xcc, 4f
	 nop
	SETX32(KERNEL_VMA_VAL, %g3)
	sub	%g2, %g3, %g4                   /* pa */
	sethi	%hi(TTE8K_HI << 16), %g5
	sllx	%g5, 32, %g5
	or	%g4, %g5, %g4
	or	%g4, TTE_TEXT, %g4              /* read-only ... */
	SETX32(_data_start, %g3)
	cmp	%g2, %g3
	blu,pn	%xcc, 5f
	 nop
	SETX32(_data_end, %g3)
	cmp	%g2, %g3
	bgeu,pn	%xcc, 5f
	 nop
	or	%g4, TTE_DATA, %g4              /* ... but data and bss */
5:	stxa	%g4, [%g0] ASI_DTLB_DATA_IN
	retry
4:	sethi	%hi(0xfffff800), %g5
	or	%g5, %lo(0xfffff800), %g5
	sllx	%g5, 32, %g5                    /* DMAP_BASE */
	sub	%g2, %g5, %g3                   /* pa if in the direct map */
	SETX32(sparc64_mmu_page, %g6)
	ldx	[%g6], %g6                      /* mp_ram_top */
	cmp	%g3, %g6
	bgeu,pn	%xcc, 3f                        /* not the direct map (or beyond RAM) */
	 srlx	%g3, 22, %g3
	sllx	%g3, 22, %g3
	sethi	%hi(TTE4M_HI << 16), %g4
	sllx	%g4, 32, %g4
	or	%g4, %g3, %g4
	or	%g4, TTE_DATA, %g4
	stxa	%g4, [%g0] ASI_DTLB_DATA_IN
	retry
3:	sethi	%hi(0xfffffc00), %g5            /* KHEAP_BASE */
	or	%g5, %lo(0xfffffc00), %g5
	sllx	%g5, 32, %g5
	sub	%g2, %g5, %g3
	srlx	%g3, 32, %g4
	brnz,pn	%g4, 9f                         /* beyond the heap's 4 GiB */
	 srlx	%g3, 23, %g4                    /* directory index */
	SETX32(sparc64_mmu_page + 8, %g5)      /* mp_kheap_dir */
	sllx	%g4, 3, %g4
	ldx	[%g5 + %g4], %g5                /* the leaf's physical address */
	brz,pn	%g5, 9f
	 srlx	%g3, 13, %g4
	and	%g4, 1023, %g4
	sllx	%g4, 3, %g4
	ldxa	[%g5 + %g4] ASI_PHYS, %g4       /* the TTE */
	brgez,pn %g4, 9f                        /* not valid (bit 63 clear) */
	 nop
	stxa	%g4, [%g0] ASI_DTLB_DATA_IN
	retry
9:	ba,a,pt	%xcc, trap_generic

/*
 * trap_generic: to C and back (see the top of the file).  Alternate or MMU
 * globals; the trapped window is current.
 */
trap_generic:
	rdpr	%tl, %g1
	cmp	%g1, 1
	bleu,pt	%xcc, 1f
	 nop
	/*
	 * A trap inside a trap handler that needs C: a window spill or fill
	 * that faulted (a kernel stack overflowed into its guard page).  Only
	 * a fatal report can follow: drop the windows not yet saved and go on
	 * on the panic stack, or the save below would spill to the bad stack
	 * again, up to MAXTL.
	 */
	wrpr	%g0, 6, %cansave
	wrpr	%g0, 0, %canrestore
	wrpr	%g0, 0, %otherwin
	SETX32(sparc64_panic_stack_top, %g1)
	sub	%g1, BIAS + MINFRAME, %sp
1:	save	%sp, -(MINFRAME + TF_SIZE), %sp
	add	%sp, BIAS + MINFRAME, %l7
	rdpr	%tstate, %l0
	stx	%l0, [%l7 + TF_TSTATE]
	rdpr	%tpc, %l1
	stx	%l1, [%l7 + TF_TPC]
	rdpr	%tnpc, %l2
	stx	%l2, [%l7 + TF_TNPC]
	rdpr	%tt, %l3
	stx	%l3, [%l7 + TF_TT]
	mov	SFAR, %l4                       /* the fault address: SFAR, */
	ldxa	[%l4] ASI_DMMU, %l4
	cmp	%l3, 0x68                       /* or for a fast MMU miss or protection */
	blu,pt	%xcc, 2f                        /* fault the tag access's page */
	 cmp	%l3, 0x6f
	bgu,pt	%xcc, 2f
	 mov	TAG_ACCESS, %l4
	ldxa	[%l4] ASI_DMMU, %l4
	srlx	%l4, 13, %l4
	sllx	%l4, 13, %l4
2:	stx	%l4, [%l7 + TF_SFAR]
	rd	%y, %l4
	stx	%l4, [%l7 + TF_Y]
	stx	%i0, [%l7 + TF_O + 0x00]
	stx	%i1, [%l7 + TF_O + 0x08]
	stx	%i2, [%l7 + TF_O + 0x10]
	stx	%i3, [%l7 + TF_O + 0x18]
	stx	%i4, [%l7 + TF_O + 0x20]
	stx	%i5, [%l7 + TF_O + 0x28]
	stx	%i6, [%l7 + TF_O + 0x30]
	stx	%i7, [%l7 + TF_O + 0x38]
	wrpr	%g0, PSTATE_KERN, %pstate       /* the normal globals, interrupts off */
	wrpr	%g0, 0, %tl
	stx	%g0, [%l7 + TF_G + 0x00]
	stx	%g1, [%l7 + TF_G + 0x08]
	stx	%g2, [%l7 + TF_G + 0x10]
	stx	%g3, [%l7 + TF_G + 0x18]
	stx	%g4, [%l7 + TF_G + 0x20]
	stx	%g5, [%l7 + TF_G + 0x28]
	stx	%g6, [%l7 + TF_G + 0x30]
	stx	%g7, [%l7 + TF_G + 0x38]
	call	sparc64_trap
	 mov	%l7, %o0
	ldx	[%l7 + TF_G + 0x08], %g1
	ldx	[%l7 + TF_G + 0x10], %g2
	ldx	[%l7 + TF_G + 0x18], %g3
	ldx	[%l7 + TF_G + 0x20], %g4
	ldx	[%l7 + TF_G + 0x28], %g5
	ldx	[%l7 + TF_G + 0x30], %g6
	ldx	[%l7 + TF_G + 0x38], %g7
	ldx	[%l7 + TF_O + 0x00], %i0
	ldx	[%l7 + TF_O + 0x08], %i1
	ldx	[%l7 + TF_O + 0x10], %i2
	ldx	[%l7 + TF_O + 0x18], %i3
	ldx	[%l7 + TF_O + 0x20], %i4
	ldx	[%l7 + TF_O + 0x28], %i5
	ldx	[%l7 + TF_O + 0x30], %i6
	ldx	[%l7 + TF_O + 0x38], %i7
	ldx	[%l7 + TF_Y], %l4
	wr	%l4, 0, %y
	wrpr	%g0, 1, %tl
	wrpr	%g0, PSTATE_KERN_AG, %pstate
	ldx	[%l7 + TF_TSTATE], %g1
	ldx	[%l7 + TF_TPC], %g2
	ldx	[%l7 + TF_TNPC], %g3
	wrpr	%g2, 0, %tpc
	wrpr	%g3, 0, %tnpc
	restore
	rdpr	%cwp, %g4
	andn	%g1, 0x1f, %g1
	or	%g1, %g4, %g1
	wrpr	%g1, 0, %tstate
	retry

/*
 * sparc64_trap_table_load: %tba, then locked translations for what a miss
 * handler itself touches, which no miss may ever evict: the I-MMU's for
 * the pages of this file's code (the table and the handlers), the D-MMU's
 * for the page of sparc64_mmu_page (.data.mmu, vm.c).
 * The firmware's own translations stay until evicted (its mapping of the
 * image for instruction fetch is the same as Sonde's).  No data access
 * before this returns.  Interrupts off.
 */
	.globl sparc64_trap_table_load
sparc64_trap_table_load:
	SETX32(sparc64_trap_table, %o1)
	wrpr	%o1, 0, %tba
	SETX32(sparc64_traps_end, %o3)
	sethi	%hi(TTE8K_HI << 16), %o4
	sllx	%o4, 32, %o4
	or	%o4, TTE_TEXT | TTE_L, %o4      /* locked, executable */
	SETX32(KERNEL_VMA_VAL, %o5)
	mov	TAG_ACCESS, %o2
1:	stxa	%o1, [%o2] ASI_IMMU             /* va, context 0 */
	sub	%o1, %o5, %g1
	or	%g1, %o4, %g1
	stxa	%g1, [%g0] ASI_ITLB_DATA_IN
	SETX32(0x2000, %g1)
	add	%o1, %g1, %o1
	cmp	%o1, %o3
	blu,pt	%xcc, 1b
	 nop
	SETX32(sparc64_mmu_page, %o1)
	stxa	%o1, [%o2] ASI_DMMU
	sub	%o1, %o5, %g1
	or	%g1, %o4, %g1
	or	%g1, TTE_DATA, %g1              /* writable */
	stxa	%g1, [%g0] ASI_DTLB_DATA_IN
	membar	#Sync
	flush	%o1
	retl
	 nop
	.balign 8192
	.globl sparc64_traps_end
sparc64_traps_end:

	.pushsection .bss
	.balign 16
sparc64_panic_stack:
	.skip	16384
sparc64_panic_stack_top:
	.popsection

/*
 * arch_safe_read(dst, src, len): 0, or -1 if a load faulted; the load is in
 * the exception table, so sparc64_trap resumes at 3f.
 */
	.globl arch_safe_read
arch_safe_read:
	brz,pn	%o2, 2f
	 nop
1:	ldub	[%o1], %o3
	stb	%o3, [%o0]
	inc	%o1
	deccc	%o2
	bnz,pt	%xcc, 1b
	 inc	%o0
2:	retl
	 clr	%o0
3:	retl
	 mov	-1, %o0
	.pushsection extable, "a"
	.balign 8
	.xword	1b, 3b
	.popsection
