/*
 * entry.S - sparc64: where OpenBIOS enters the kernel.
 *
 * OpenBIOS jumps to _start (virtual 0x40004000) in its own register
 * window, with the image mapped for instruction fetch only: a data access
 * to the image faults under the firmware's trap table.  So before touching
 * memory _start writes the firmware's windows to its stack (flushw, still
 * with its handlers), installs Sonde's trap table and drops the firmware's
 * translations (traps.S: from then on the image, the direct map and the
 * heap are mapped by Sonde's own miss handlers), moves to the boot stack
 * (biased by 2047, as the SPARC V9 ABI wants) and calls sparc64_main,
 * which never returns.  The firmware is never called: what it would say
 * (memory size, command line) comes from QEMU's fw_cfg (bootinfo.c).
 *
 * Tests: make sparc64-check
 */
	.register %g2, #scratch
	.register %g3, #scratch

#define STACK_BIAS 2047
#define BOOT_STACK_SIZE 32768

	.section .text.entry, "ax"
	.globl _start
_start:
	wrpr	%g0, 0x14, %pstate              /* privileged, FPU on, interrupts off */
	wrpr	%g0, 15, %pil
	flushw
	call	sparc64_trap_table_load
	 nop
	sethi	%hi(boot_stack_top), %g1
	or	%g1, %lo(boot_stack_top), %g1
	sub	%g1, STACK_BIAS + 192, %sp
	mov	0, %fp
	call	sparc64_main
	 mov	0, %i7
1:	ba	1b
	 nop

	.section .bss
	.balign 16
	.globl boot_stack, boot_stack_top
boot_stack:
	.skip BOOT_STACK_SIZE
boot_stack_top:
