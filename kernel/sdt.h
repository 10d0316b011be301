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
 *
 * Is-enabled tests.  A site whose arguments cost real work to compute (a
 * struct filled in on the stack, a path normalised) guards that work with
 *
 *   if (SDT_ENABLED(fsinfo__lookup)) {
 *           ... compute the arguments ...
 *           DTRACE_PROBE2(fsinfo__lookup, a, b);
 *   }
 *
 * so that disabled it costs one load and one branch not taken, not the
 * work.  Each SDT_ENABLED use is a record { name, count } of its own in the
 * writable "sdt_flags" section (linker.ld collects it in .data); count is
 * the number of enabled probes over sites of that name (trace/prov_sdt.c
 * adds one in its enable and takes one in its disable, atomically, for
 * every record of the name), so it is non-zero while any probe of that
 * name is enabled.  It is only a hint: the site must sit inside the test,
 * so that a hit without the test true (the count raised while the site is
 * not yet armed, or dropped as it is disarmed) is simply not traced,
 * never traced with arguments left unset.  Portable C, no patching: the
 * same on every machine.
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

/* One is-enabled record per SDT_ENABLED use; prov_sdt.c walks __start_sdt_flags..__stop_sdt_flags. */
struct sdt_flag {
	const char *sf_name;         /* probe name as written (fsinfo__lookup) */
	volatile uint32_t sf_on;     /* enabled probes of that name (prov_sdt.c) */
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

/*
 * SDT_ENABLED(name): true while a probe of sites named name is enabled.
 * The record is a static in the block of its use (volatile, so its load is
 * never folded away); "used" keeps a record whose use the compiler drops.
 */
#define SDT_ENABLED(name) __extension__ ({ \
	static struct sdt_flag sdt_flag_ __attribute__((used, section("sdt_flags"), aligned(8))) = \
		{ #name, 0 }; \
	__builtin_expect(sdt_flag_.sf_on != 0, 0); })

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
