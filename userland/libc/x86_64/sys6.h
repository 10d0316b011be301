/*
 * sys6.h - x86_64: the system call instruction under userland/libc/syscalls.c.
 *
 * SYSCALL with Linux x86-64's convention: the number in rax, the arguments
 * in rdi, rsi, rdx, r10, r8, r9, the result in rax (-errno on failure);
 * rcx and r11 are the CPU's (the return rip, rflags).  Included once, by
 * syscalls.c (mk/user.mk puts this directory on the include path).
 */
static long sys6(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	register long r10 __asm__("r10") = a3;
	register long r8 __asm__("r8") = a4;
	register long r9 __asm__("r9") = a5;
	long ret;

	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
	                 : "rcx", "r11", "memory");
	return ret;
}
