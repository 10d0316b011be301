/*
 * sdt.h - statically defined tracing: probe sites in kernel code.
 *
 *   DTRACE_PROBE2(kmem__alloc, size, ptr);
 *
 * names the probe sdt:kernel:<function>:kmem-alloc, where <function> is the
 * function that holds the site (after inlining) and "__" in the name becomes
 * "-" (DTrace's convention).  Arguments are integers or pointers, up to six,
 * seen by D as arg0..arg5.
 *
 * Cost when disabled: one 5-byte NOP, plus getting each argument into some
 * register (often it is there already).  Each site emits, in place:
 *
 *   1:  nopl 0x0(%rax,%rax)        0F 1F 44 00 00: the patch point
 *
 * and, in the "sdt_sites" section (collected by linker.ld), a record
 * { site address, probe name, register names } such as
 * { 1b, "kmem__alloc", "%rbx %rax" }: the operands are "r" constraints, so
 * the compiler picks the registers and the assembler writes their names.
 * When the probe is enabled, trace/prov_sdt.c patches a trap over the NOP
 * and reads the arguments from the saved registers by those names
 * (arch/x86_64/sdt_isa.c).  The asm is volatile so the compiler never drops
 * a site; it may still copy one (unrolling) or merge two identical ones in a
 * function (tail merging), which is harmless: the sites of one name in one
 * function make one probe.
 *
 * The NOP itself is the machine's (ARCH_SDT_NOP in arch/arch.h: one `nop`
 * word on sparc64); the register names are whatever the assembler writes
 * for "r" operands (%o0, %g1 on sparc64), read back by sdt_isa_regindex().
 */
#ifndef SONDE_SDT_H
#define SONDE_SDT_H

#include <stdint.h>

#include "arch/arch.h"               /* ARCH_SDT_NOP: the site's no-op */

/* One site record; trace/prov_sdt.c walks __start_sdt_sites..__stop_sdt_sites. */
struct sdt_site {
	uint64_t ss_addr;            /* the NOP */
	const char *ss_name;         /* probe name as written (kmem__alloc) */
	const char *ss_regs;         /* argument registers, space-separated ("%rdi %rax") */
};

/*
 * The records hold absolute addresses.  In the kernel they are fixed at link
 * time; in a host test binary (position-independent) the loader relocates
 * them, so there the section must be writable or the link needs text
 * relocations.
 */
#ifdef SONDE_HOST
#define SDT_SITES_FLAGS "aw"
#else
#define SDT_SITES_FLAGS "a"
#endif

#define SDT_SITE(name, regs, ...) \
	__asm__ volatile("990: " ARCH_SDT_NOP "\n\t" \
	                 ".pushsection .rodata.sdt_str, \"a\", @progbits\n\t" \
	                 "991: .asciz \"" #name "\"\n\t" \
	                 "992: .asciz \"" regs "\"\n\t" \
	                 ".popsection\n\t" \
	                 ".pushsection sdt_sites, \"" SDT_SITES_FLAGS "\", @progbits\n\t" \
	                 ".balign 8\n\t" \
	                 ".quad 990b, 991b, 992b\n\t" \
	                 ".popsection" :: __VA_ARGS__)

#define SDT_ARG(x) "r"((uint64_t)(x))

#define DTRACE_PROBE(name)  SDT_SITE(name, "")
#define DTRACE_PROBE0(name) SDT_SITE(name, "")
#define DTRACE_PROBE1(name, a0) SDT_SITE(name, "%0", SDT_ARG(a0))
#define DTRACE_PROBE2(name, a0, a1) SDT_SITE(name, "%0 %1", SDT_ARG(a0), SDT_ARG(a1))
#define DTRACE_PROBE3(name, a0, a1, a2) \
	SDT_SITE(name, "%0 %1 %2", SDT_ARG(a0), SDT_ARG(a1), SDT_ARG(a2))
#define DTRACE_PROBE4(name, a0, a1, a2, a3) \
	SDT_SITE(name, "%0 %1 %2 %3", SDT_ARG(a0), SDT_ARG(a1), SDT_ARG(a2), SDT_ARG(a3))
#define DTRACE_PROBE5(name, a0, a1, a2, a3, a4) \
	SDT_SITE(name, "%0 %1 %2 %3 %4", SDT_ARG(a0), SDT_ARG(a1), SDT_ARG(a2), \
	         SDT_ARG(a3), SDT_ARG(a4))
#define DTRACE_PROBE6(name, a0, a1, a2, a3, a4, a5) \
	SDT_SITE(name, "%0 %1 %2 %3 %4 %5", SDT_ARG(a0), SDT_ARG(a1), SDT_ARG(a2), \
	         SDT_ARG(a3), SDT_ARG(a4), SDT_ARG(a5))

#endif
