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

/*
 * sparc64_fpu_save(area), sparc64_fpu_load(area): a user thread's
 * floating-point registers, %f0..%f62 as 32 doubles (the whole register
 * file) and %fsr, in 264 bytes (vm_user.c: FPU_AREA).  FPRS.FEF is set first:
 * user mode may have cleared it, and the kernel computes with the FPU too
 * (D's float formatting).  Interrupts off.
 */
	.globl sparc64_fpu_save
sparc64_fpu_save:
	wr	%g0, 4, %fprs
	std	%f0, [%o0 + 0x00]
	std	%f2, [%o0 + 0x08]
	std	%f4, [%o0 + 0x10]
	std	%f6, [%o0 + 0x18]
	std	%f8, [%o0 + 0x20]
	std	%f10, [%o0 + 0x28]
	std	%f12, [%o0 + 0x30]
	std	%f14, [%o0 + 0x38]
	std	%f16, [%o0 + 0x40]
	std	%f18, [%o0 + 0x48]
	std	%f20, [%o0 + 0x50]
	std	%f22, [%o0 + 0x58]
	std	%f24, [%o0 + 0x60]
	std	%f26, [%o0 + 0x68]
	std	%f28, [%o0 + 0x70]
	std	%f30, [%o0 + 0x78]
	std	%f32, [%o0 + 0x80]
	std	%f34, [%o0 + 0x88]
	std	%f36, [%o0 + 0x90]
	std	%f38, [%o0 + 0x98]
	std	%f40, [%o0 + 0xa0]
	std	%f42, [%o0 + 0xa8]
	std	%f44, [%o0 + 0xb0]
	std	%f46, [%o0 + 0xb8]
	std	%f48, [%o0 + 0xc0]
	std	%f50, [%o0 + 0xc8]
	std	%f52, [%o0 + 0xd0]
	std	%f54, [%o0 + 0xd8]
	std	%f56, [%o0 + 0xe0]
	std	%f58, [%o0 + 0xe8]
	std	%f60, [%o0 + 0xf0]
	std	%f62, [%o0 + 0xf8]
	retl
	 stx	%fsr, [%o0 + 0x100]

	.globl sparc64_fpu_load
sparc64_fpu_load:
	wr	%g0, 4, %fprs
	ldd	[%o0 + 0x00], %f0
	ldd	[%o0 + 0x08], %f2
	ldd	[%o0 + 0x10], %f4
	ldd	[%o0 + 0x18], %f6
	ldd	[%o0 + 0x20], %f8
	ldd	[%o0 + 0x28], %f10
	ldd	[%o0 + 0x30], %f12
	ldd	[%o0 + 0x38], %f14
	ldd	[%o0 + 0x40], %f16
	ldd	[%o0 + 0x48], %f18
	ldd	[%o0 + 0x50], %f20
	ldd	[%o0 + 0x58], %f22
	ldd	[%o0 + 0x60], %f24
	ldd	[%o0 + 0x68], %f26
	ldd	[%o0 + 0x70], %f28
	ldd	[%o0 + 0x78], %f30
	ldd	[%o0 + 0x80], %f32
	ldd	[%o0 + 0x88], %f34
	ldd	[%o0 + 0x90], %f36
	ldd	[%o0 + 0x98], %f38
	ldd	[%o0 + 0xa0], %f40
	ldd	[%o0 + 0xa8], %f42
	ldd	[%o0 + 0xb0], %f44
	ldd	[%o0 + 0xb8], %f46
	ldd	[%o0 + 0xc0], %f48
	ldd	[%o0 + 0xc8], %f50
	ldd	[%o0 + 0xd0], %f52
	ldd	[%o0 + 0xd8], %f54
	ldd	[%o0 + 0xe0], %f56
	ldd	[%o0 + 0xe8], %f58
	ldd	[%o0 + 0xf0], %f60
	ldd	[%o0 + 0xf8], %f62
	retl
	 ldx	[%o0 + 0x100], %fsr
