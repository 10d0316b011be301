/*
 * traps.S - sparc64: the trap table, register-window spill and fill, the
 * MMU's TLB-miss handlers, and the path from a trap to C.
 *
 * The table (%tba) has 512 entries of 8 instructions for traps taken at
 * TL = 0 and as many for TL > 0 (a trap inside a trap handler: a spill, a
 * fill or a TLB miss while the handler saves state).  Both halves are the
 * same code.  The kernel runs at TL 0, privileged, with the normal globals;
 * the hardware switches to the alternate globals for a trap, to the MMU
 * globals for a TLB miss.  User processes run at TL 0 unprivileged, in
 * their own MMU context (vm_user.c); every kernel translation is global (TTE
 * bit G), so the kernel sees itself whatever context is loaded.
 *
 * Windows: spill_0_normal and fill_0_normal move one window to or from its
 * save area at %sp + 2047 (the 64-bit ABI's biased stack); clean_window
 * zeroes a window before the kernel uses it.
 *
 * User windows (WSTATE's type 1: user mode runs with WSTATE 1, the kernel
 * with 8, other = 1, normal = 0) spill and fill through ASI_AIUP, the
 * user's view of the primary context: spill_1_* and fill_1_*.  A trap from
 * user mode (trap_generic) moves the user's windows to OTHERWIN and flushes
 * them to the user's stack at once, so the kernel never spills a user
 * window later, holding locks.  A user window whose spill faults (an
 * unmapped stack, or a copy-on-write page) is kept in the MMU page's
 * mp_wbuf instead and copied out by C before the thread goes on
 * (vm_user.c: a fault there kills the process); a fill that faults kills the
 * process at once (sparc64_user_window_fault).  Both are told apart from a
 * kernel stack overflow by the trap type one level below.
 *
 * TLB misses are filled with no table for two regions, whose translations
 * are arithmetic: the image, 8 KiB pages at physical = virtual - KERNEL_VMA
 * (text executable and read-only, the only I-MMU region; data and bss
 * writable), and the direct map, 4 MiB pages, DMAP_BASE + pa up to
 * sparc64_mmu_page.mp_ram_top.  The heap's large blocks, [KHEAP_BASE,
 * + 4 GiB), are 8 KiB pages in a two-level table (vm.c): mp_kheap_dir holds the
 * physical address of each leaf page of 1024 TTEs, each leaf maps 8 MiB.
 * User addresses (below 2^43, a miss in a nonzero context) are 8 KiB pages
 * from the loaded space's three-level table (vm_user.c: mp_user_root, its
 * leaves are TTEs; the I-MMU takes only those with the soft bit X).
 * Any other address, or a missing entry, is a fault: trap_generic with the
 * trap type of the miss, and C decides (a fix-up, copy-on-write, a user
 * fault, or a panic).
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
#define ASI_AIUP   0x10         /* as if user, primary context */

/* The MMU page (sparc64.h: struct sparc64_mmu_page). */
#define MP_USER_ROOT 4104
#define MP_USER_CTX  4112
#define MP_KSTACK    4120
#define MP_WBUF_N    4128
#define MP_WBUF      4136
#define WBUF_SIZE    136
#define WBUF_MAX     8
#define MP_NEST      5224       /* struct sparc64_nested: what trap_fatal_nested saw */

#define TSTATE_PRIV   0x400     /* PSTATE.PRIV, in TSTATE */
#define WSTATE_KERN   8         /* other windows: type 1 (user), normal: type 0 */
#define WSTATE_USER   1         /* normal windows: type 1 */
#define TTE_SOFT_X    0x80      /* vm_user.c: the page may be executed */

#define PSTATE_KERN    0x14     /* PRIV | PEF */
#define PSTATE_KERN_AG 0x15     /* PRIV | PEF | AG */

/* Valid, 4 MiB or 8 KiB, cacheable, privileged (+ writable for data). */
#define TTE4M_HI   0xe000      /* bits 63..48: V, size 4M */
#define TTE8K_HI   0x8000      /* V, size 8K */
#define TTE_TEXT   0x35        /* CP | CV | P | G */
#define TTE_L      0x40
#define TTE_DATA   0x37        /* + W */
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

	/* A user window: the same through ASI_AIUP (TSTATE keeps the user's %asi). */
	.macro USPILL
	wr	%g0, ASI_AIUP, %asi
	stxa	%l0, [%sp + BIAS + 0x00] %asi
	stxa	%l1, [%sp + BIAS + 0x08] %asi
	stxa	%l2, [%sp + BIAS + 0x10] %asi
	stxa	%l3, [%sp + BIAS + 0x18] %asi
	stxa	%l4, [%sp + BIAS + 0x20] %asi
	stxa	%l5, [%sp + BIAS + 0x28] %asi
	stxa	%l6, [%sp + BIAS + 0x30] %asi
	stxa	%l7, [%sp + BIAS + 0x38] %asi
	stxa	%i0, [%sp + BIAS + 0x40] %asi
	stxa	%i1, [%sp + BIAS + 0x48] %asi
	stxa	%i2, [%sp + BIAS + 0x50] %asi
	stxa	%i3, [%sp + BIAS + 0x58] %asi
	stxa	%i4, [%sp + BIAS + 0x60] %asi
	stxa	%i5, [%sp + BIAS + 0x68] %asi
	stxa	%i6, [%sp + BIAS + 0x70] %asi
	stxa	%i7, [%sp + BIAS + 0x78] %asi
	saved
	retry
	.rept 13
	nop
	.endr
	.endm

	.macro UFILL
	wr	%g0, ASI_AIUP, %asi
	ldxa	[%sp + BIAS + 0x00] %asi, %l0
	ldxa	[%sp + BIAS + 0x08] %asi, %l1
	ldxa	[%sp + BIAS + 0x10] %asi, %l2
	ldxa	[%sp + BIAS + 0x18] %asi, %l3
	ldxa	[%sp + BIAS + 0x20] %asi, %l4
	ldxa	[%sp + BIAS + 0x28] %asi, %l5
	ldxa	[%sp + BIAS + 0x30] %asi, %l6
	ldxa	[%sp + BIAS + 0x38] %asi, %l7
	ldxa	[%sp + BIAS + 0x40] %asi, %i0
	ldxa	[%sp + BIAS + 0x48] %asi, %i1
	ldxa	[%sp + BIAS + 0x50] %asi, %i2
	ldxa	[%sp + BIAS + 0x58] %asi, %i3
	ldxa	[%sp + BIAS + 0x60] %asi, %i4
	ldxa	[%sp + BIAS + 0x68] %asi, %i5
	ldxa	[%sp + BIAS + 0x70] %asi, %i6
	ldxa	[%sp + BIAS + 0x78] %asi, %i7
	restored
	retry
	.rept 13
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
	SPILL                           /* 0x080: spill_0_normal (kernel) */
	USPILL                          /* 0x084: spill_1_normal (user mode's own) */
	GEN	0x1c                    /* 0x088: spill_2..7_normal, spill_0_other */
	USPILL                          /* 0x0a4: spill_1_other (the user's, from the kernel) */
	GEN	0x18                    /* 0x0a8: spill_2..7_other */
	FILL                            /* 0x0c0: fill_0_normal */
	UFILL                           /* 0x0c4: fill_1_normal */
	GEN	0x1c                    /* 0x0c8 */
	UFILL                           /* 0x0e4: fill_1_other */
	GEN	0x118                   /* 0x0e8: other fills, trap instructions (ta 0x6d: system call) */
	.endm

	.section .text.traps, "ax"
	.balign 32768
	.globl sparc64_trap_table
sparc64_trap_table:
	HALF
	HALF

/*
 * USER_TTE mmu, fail: the TTE of the user page whose miss is in the tag
 * access register of mmu, into %g4, walking the loaded space's table
 * (vm_user.c: three levels of 1024 entries, physical addresses; a leaf is
 * valid when its bit 63 is set); to fail if the miss is not in the loaded
 * user context, above the user half, or unmapped.  MMU globals.
 */
	.macro USER_TTE mmu, fail
	mov	TAG_ACCESS, %g1
	ldxa	[%g1] \mmu, %g2                 /* va | context */
	sllx	%g2, 51, %g3
	srlx	%g3, 51, %g3                    /* the context: bits 12..0 */
	SETX32(sparc64_mmu_page + MP_USER_CTX, %g5)
	ldx	[%g5], %g4
	brz,pn	%g3, \fail                      /* the kernel's context */
	 cmp	%g3, %g4
	bne,pn	%xcc, \fail                     /* not the loaded space's */
	 srlx	%g2, 43, %g4
	brnz,pn	%g4, \fail                      /* above the user half */
	 nop
	ldx	[%g5 - 8], %g5                  /* mp_user_root */
	srlx	%g2, 33, %g4
	and	%g4, 1023, %g4
	sllx	%g4, 3, %g4
	ldxa	[%g5 + %g4] ASI_PHYS, %g5
	brz,pn	%g5, \fail
	 srlx	%g2, 23, %g4
	and	%g4, 1023, %g4
	sllx	%g4, 3, %g4
	ldxa	[%g5 + %g4] ASI_PHYS, %g5
	brz,pn	%g5, \fail
	 srlx	%g2, 13, %g4
	and	%g4, 1023, %g4
	sllx	%g4, 3, %g4
	ldxa	[%g5 + %g4] ASI_PHYS, %g4
	brgez,pn %g4, \fail                     /* not valid */
	 nop
	.endm

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

1:	USER_TTE ASI_IMMU, 8f
	andcc	%g4, TTE_SOFT_X, %g0            /* user text only */
	bz,pn	%xcc, 8f
	 nop
	stxa	%g4, [%g0] ASI_ITLB_DATA_IN
	retry
8:	ba,a,pt	%xcc, trap_generic

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
9:	USER_TTE ASI_DMMU, 8f
	stxa	%g4, [%g0] ASI_DTLB_DATA_IN
	retry
8:	ba,a,pt	%xcc, trap_generic

/*
 * trap_generic: to C and back (see the top of the file).  Alternate or MMU
 * globals; the trapped window is current.
 */
trap_generic:
	rdpr	%tl, %g1
	cmp	%g1, 1
	bgu,pn	%xcc, trap_nested
	 rdpr	%tstate, %g1
	andcc	%g1, TSTATE_PRIV, %g0
	bnz,pt	%xcc, 1f
	 nop
	/*
	 * From user mode.  A new window (a spill it needs is the user's own:
	 * WSTATE is still the user's); the user's windows become OTHERWIN and
	 * are flushed to the user's stack at once; the frame goes at the top
	 * of this thread's kernel stack (mp_kstack), where vm_user.c finds it.
	 */
	save
	rdpr	%canrestore, %g2
	wrpr	%g2, 0, %otherwin
	wrpr	%g0, 0, %canrestore
	wrpr	%g0, WSTATE_KERN, %wstate
	SETX32(sparc64_mmu_page + MP_KSTACK, %g3)
	ldx	[%g3], %g3
	sub	%g3, BIAS + MINFRAME + TF_SIZE, %sp
	flushw
	ba,pt	%xcc, 2f
	 nop
1:
trap_generic_kernel:
	save	%sp, -(MINFRAME + TF_SIZE), %sp
2:	add	%sp, BIAS + MINFRAME, %l7
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
	 nop
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
	/*
	 * For stack walks (stack(), backtraces), this window's %i7, saved
	 * above, becomes the trapped PC: from the kernel, the walk goes on
	 * through the trapped code as if it had called here (its %o7 may hold
	 * anything by now); from user mode the user's %sp and PC leave the
	 * window too, so a kernel stack ends at the trap with no user address.
	 * The frame gives them back on the way out.
	 */
	andcc	%l0, TSTATE_PRIV, %g0
	bnz,pt	%xcc, 3f
	 mov	%l1, %i7                        /* %tpc */
	clr	%i6
	clr	%i7
3:	wrpr	%g0, PSTATE_KERN, %pstate       /* the normal globals, interrupts off */
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
	ldx	[%l7 + TF_TSTATE], %l0
	andcc	%l0, TSTATE_PRIV, %g0
	bz,pn	%xcc, trap_return_user
	 nop
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
 * trap_return_user: back to user mode with the frame at %l7 (TL 0,
 * interrupts off, the thread's space loaded).  Every other window goes
 * to its stack first (flushw: kernel windows), so the restore below
 * fills the user's window from the user's stack (fill_1_normal; a fault
 * there kills the process).
 */
trap_return_user:
	wrpr	%g0, PSTATE_KERN, %pstate
	flushw
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
	wrpr	%g0, WSTATE_USER, %wstate
	wrpr	%g0, 0, %otherwin
	restore
	rdpr	%cwp, %g4
	andn	%g1, 0x1f, %g1
	or	%g1, %g4, %g1
	wrpr	%g1, 0, %tstate
	retry

/*
 * sparc64_user_return(tf): user mode with the registers of tf
 * (arch_user_enter, arch_user_resume).  Interrupts off.  Never returns.
 */
	.globl sparc64_user_return
sparc64_user_return:
	save	%sp, -MINFRAME, %sp
	ba,pt	%xcc, trap_return_user
	 mov	%i0, %l7

/*
 * trap_nested: a trap at TL > 1 that needs more than the table.  If the
 * trap below it (TL - 1) was a user window's spill (spill_1_*), the window
 * goes to mp_wbuf and the spill completes (saved, retry at TL - 1); the
 * level-1 soft interrupt makes sure C copies it out (vm_user.c) before user
 * mode goes on, even when the spill came from user mode's own save.  If
 * it was a user window's fill, the process dies: the windows are dropped
 * and C is called on the thread's kernel stack.  Anything else is a
 * kernel stack overflow: the panic stack.
 */
trap_nested:
	rdpr	%tl, %g1
	sub	%g1, 1, %g2
	wrpr	%g2, 0, %tl
	rdpr	%tt, %g3                        /* the trap below */
	wrpr	%g1, 0, %tl
	andn	%g3, 0x60, %g4
	cmp	%g4, 0x84                       /* 0x84, 0xa4, 0xc4, 0xe4: type 1 */
	bne,pn	%xcc, trap_fatal_nested
	 cmp	%g3, 0xc0
	bgeu,pn	%xcc, user_fill_fault
	 nop
	SETX32(sparc64_mmu_page + MP_WBUF_N, %g5)
	ldx	[%g5], %g4
	cmp	%g4, WBUF_MAX
	bgeu,pn	%xcc, user_fill_fault           /* cannot happen: no room, so it dies */
	 add	%g4, 1, %g6
	stx	%g6, [%g5]
	mulx	%g4, WBUF_SIZE, %g4
	add	%g5, %g4, %g5
	add	%g5, MP_WBUF - MP_WBUF_N, %g5   /* this window's slot */
	stx	%sp, [%g5 + 0x00]
	stx	%l0, [%g5 + 0x08]
	stx	%l1, [%g5 + 0x10]
	stx	%l2, [%g5 + 0x18]
	stx	%l3, [%g5 + 0x20]
	stx	%l4, [%g5 + 0x28]
	stx	%l5, [%g5 + 0x30]
	stx	%l6, [%g5 + 0x38]
	stx	%l7, [%g5 + 0x40]
	stx	%i0, [%g5 + 0x48]
	stx	%i1, [%g5 + 0x50]
	stx	%i2, [%g5 + 0x58]
	stx	%i3, [%g5 + 0x60]
	stx	%i4, [%g5 + 0x68]
	stx	%i5, [%g5 + 0x70]
	stx	%i6, [%g5 + 0x78]
	stx	%i7, [%g5 + 0x80]
	wr	%g0, 2, %set_softint            /* interrupt level 1 */
	wrpr	%g2, 0, %tl
	saved
	retry

/* user_fill_fault: %g3 the fill's trap type; the fault address and the user's pc to C. */
user_fill_fault:
	mov	SFAR, %g4
	ldxa	[%g4] ASI_DMMU, %g4
	rdpr	%tt, %g5
	cmp	%g5, 0x68                       /* a miss or protection: the tag access's page */
	blu,pt	%xcc, 1f
	 cmp	%g5, 0x6f
	bgu,pt	%xcc, 1f
	 nop
	mov	TAG_ACCESS, %g4
	ldxa	[%g4] ASI_DMMU, %g4
1:	wrpr	%g0, 1, %tl
	rdpr	%tpc, %g6                       /* where user mode was */
	wrpr	%g0, 0, %canrestore
	wrpr	%g0, 0, %otherwin
	wrpr	%g0, 6, %cansave
	wrpr	%g0, 7, %cleanwin
	wrpr	%g0, 0, %wstate
	SETX32(sparc64_mmu_page + MP_KSTACK, %g7)
	ldx	[%g7], %g7
	sub	%g7, BIAS + MINFRAME + TF_SIZE, %sp
	mov	%g4, %o0
	mov	%g5, %o1
	mov	%g6, %o2
	wrpr	%g0, PSTATE_KERN, %pstate
	wrpr	%g0, 0, %tl
	call	sparc64_user_window_fault
	 nop
	illtrap	0

trap_fatal_nested:
	/*
	 * A trap inside a trap handler that needs C: a window spill or fill
	 * that faulted (a kernel stack overflowed into its guard page).  Only
	 * a fatal report can follow: drop the windows not yet saved and go on
	 * on the panic stack, or the save below would spill to the bad stack
	 * again, up to MAXTL.  First, for the report (trap.c), what C could
	 * not see afterwards, into the MMU page, which never misses: this
	 * trap's type and page (the tag access, before the panic stack's
	 * first store can miss and replace it), the trap below (%g3, from
	 * trap_nested) and where it was taken (its TPC: the kernel code that
	 * needed the window), and this window's %i6 and %i7 (for a spill, the
	 * window being saved: its caller's frame and its call site), from
	 * which the frames already on the stack are found.
	 */
	SETX32(sparc64_mmu_page + MP_NEST, %g5)
	rdpr	%tt, %g4
	stx	%g4, [%g5 + 0x00]
	mov	TAG_ACCESS, %g4
	ldxa	[%g4] ASI_DMMU, %g4
	stx	%g4, [%g5 + 0x08]
	stx	%g3, [%g5 + 0x10]
	wrpr	%g2, 0, %tl
	rdpr	%tpc, %g4
	wrpr	%g1, 0, %tl
	stx	%g4, [%g5 + 0x18]
	stx	%i6, [%g5 + 0x20]
	stx	%i7, [%g5 + 0x28]
	wrpr	%g0, 6, %cansave
	wrpr	%g0, 0, %canrestore
	wrpr	%g0, 0, %otherwin
	wrpr	%g0, 0, %wstate
	SETX32(sparc64_panic_stack_top, %g1)
	sub	%g1, BIAS + MINFRAME, %sp
	ba,pt	%xcc, trap_generic_kernel
	 nop

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

/*
 * sparc64_user_copy(dst, src, len): 0, or -1 if a load or store faulted;
 * sparc64_user_strcpy(dst, src, max): the length without the NUL, -1 on a
 * fault, -2 if no NUL came within max bytes.  The kernel's only accesses
 * to user memory (vm_user.c checks the range first: the user's pages are not
 * privileged, so ordinary loads and stores reach them in the loaded
 * context); each is in the exception table.  A store to a copy-on-write
 * page faults first into vm_user.c, which makes it private and retries.
 */
	.globl sparc64_user_copy
sparc64_user_copy:
	brz,pn	%o2, 2f
	 nop
1:	ldub	[%o1], %o3
3:	stb	%o3, [%o0]
	inc	%o1
	deccc	%o2
	bnz,pt	%xcc, 1b
	 inc	%o0
2:	retl
	 clr	%o0
4:	retl
	 mov	-1, %o0
	.pushsection extable, "a"
	.balign 8
	.xword	1b, 4b
	.xword	3b, 4b
	.popsection

	.globl sparc64_user_strcpy
sparc64_user_strcpy:
	clr	%o4                             /* the length */
1:	cmp	%o4, %o2
	bgeu,pn	%xcc, 3f
	 nop
5:	ldub	[%o1 + %o4], %o3
	stb	%o3, [%o0 + %o4]
	brnz,pt	%o3, 1b
	 inc	%o4
	retl
	 sub	%o4, 1, %o0
3:	retl
	 mov	-2, %o0
4:	retl
	 mov	-1, %o0
	.pushsection extable, "a"
	.balign 8
	.xword	5b, 4b
	.popsection
