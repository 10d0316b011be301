/*
 * crt0.S - sparc64: where a Sonde user program starts.
 *
 * The kernel (arch/sparc64/vm_user.c, arch_user_enter) enters _start in user
 * mode with %sp biased by 2047 (the SPARC V9 ABI) and a zeroed register
 * save area of 176 bytes above it; above that, as on x86_64
 * (kernel/proc_exec.c):
 *
 *     %sp + 2047 + 176 ->  argc
 *                          argv[0] ... argv[argc - 1], NULL
 *                          envp[0] ... NULL
 *                          (the strings)
 *
 * The window's %fp (%i6) and %i7 are 0, so stack walks stop here.
 * _start hands argc, argv and envp to sonde_start (syscalls.c), which runs
 * the constructors, main and exit.  It never returns.
 *
 * Tests: tests/e2e/test_sparc64_user.py
 */
#define BIAS 2047
	.text
	.globl	_start
	.type	_start, @function
_start:
	ldx	[%sp + BIAS + 176], %o0         /* argc */
	add	%sp, BIAS + 184, %o1            /* argv */
	sllx	%o0, 3, %o2
	add	%o1, %o2, %o2
	add	%o2, 8, %o2                     /* envp: past argv's NULL */
	call	sonde_start
	 nop
	illtrap	0                               /* not reached: a fault if it is */
	.size	_start, . - _start

	.section .note.GNU-stack, "", @progbits
