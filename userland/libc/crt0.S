/*
 * crt0.S - where a Sonde user program starts.
 *
 * The kernel's ELF loader (kernel/proc_exec.c) enters _start in ring 3 with
 * the stack laid out as on Linux x86-64:
 *
 *     rsp ->  argc
 *             argv[0] ... argv[argc - 1], NULL
 *             envp[0] ... NULL
 *             (the strings)
 *
 * _start clears the frame pointer (so backtraces stop here), aligns the
 * stack to 16 bytes as the ABI wants at a call, and hands argc, argv and
 * envp to sonde_start (syscalls.c), which runs the constructors, main and
 * exit.  It never returns.
 *
 * Tests: tests/e2e/test_proc.py (every /bin program starts here)
 */
	.text
	.globl	_start
	.type	_start, @function
_start:
	xorl	%ebp, %ebp
	movq	(%rsp), %rdi            /* argc */
	leaq	8(%rsp), %rsi           /* argv */
	leaq	8(%rsi,%rdi,8), %rdx    /* envp: past argv's NULL */
	andq	$-16, %rsp
	call	sonde_start
	hlt                             /* not reached: a fault if it is */
	.size	_start, . - _start

	.section .note.GNU-stack, "", @progbits
