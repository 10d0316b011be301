/*
 * switch.S - sparc64: context switch between kernel threads.
 *
 * sparc64_switch(save_sp, new_sp) runs in a window of its own (save):
 * flushw writes every other window to its stack, then this window's
 * locals and ins go to its own save area at %sp + 2047, as a spill would
 * put them.  *save_sp = %sp; %sp = new_sp; the new thread's window is
 * loaded back from its save area.  ret/restore then returns into the new
 * thread: CANRESTORE is 0 after flushw, so the restore fills its caller's
 * window from the stack.
 *
 * A new thread's stack (machine.c, arch_thread_stack_init) holds two
 * frames: the switch frame, whose saved %i7 sends ret to thread_trampoline
 * and whose %i6 is the second frame, and that frame, whose saved %l0 is
 * the thread and whose %i6 and %i7 are 0 (where stack walks stop).
 * Interrupts are off throughout (the scheduler holds sched_lock).
 *
 * Tests: self-tests thread_*, wl_* under make sparc64-check
 */
#define BIAS 2047

	.macro WSTORE
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
	.endm

	.macro WLOAD
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
	.endm

	.text
	.globl sparc64_switch
sparc64_switch:
	save	%sp, -176, %sp
	flushw
	WSTORE
	stx	%sp, [%i0]
	mov	%i1, %sp
	WLOAD
	ret
	 restore

	.globl thread_trampoline
thread_trampoline:
	call	thread_start
	 mov	%l0, %o0
	illtrap	0
