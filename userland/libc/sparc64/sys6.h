/*
 * sys6.h - sparc64: the system call instruction under userland/libc/syscalls.c.
 *
 * `ta 0x6d` (software trap 0x6d, trap type 0x16d; arch/sparc64/vm_user.c): the
 * number in %g1, the arguments in %o0..%o5, the result in %o0 (-errno on
 * failure).  The kernel gives back every other register as it was,
 * condition codes included.  Included once, by syscalls.c
 * (mk/sparc64_user.mk puts this directory on the include path).
 */
static long sys6(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	register long g1 __asm__("g1") = nr;
	register long o0 __asm__("o0") = a0;
	register long o1 __asm__("o1") = a1;
	register long o2 __asm__("o2") = a2;
	register long o3 __asm__("o3") = a3;
	register long o4 __asm__("o4") = a4;
	register long o5 __asm__("o5") = a5;

	__asm__ volatile("ta 0x6d"
	                 : "+r"(o0)
	                 : "r"(g1), "r"(o1), "r"(o2), "r"(o3), "r"(o4), "r"(o5)
	                 : "memory");
	return o0;
}
