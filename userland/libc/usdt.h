/*
 * usdt.h - statically defined tracing in user programs (USDT): the user
 * side of the kernel's sdt.h.
 *
 *   #include "userland/libc/usdt.h"
 *   DTRACE_PROBE2(pidloop, step, i, total);
 *   if (DTRACE_IS_ENABLED(pidloop, step)) { ...costly argument... }
 *
 * makes the probe pidloop<PID>:<program>:<function>:step of each process
 * running the program (trace/prov_pid.c), where <function> is the one that
 * holds the site and "__" in the name becomes "-".  Arguments are integers
 * or pointers, up to six, seen by D as arg0..arg5.
 *
 * Disabled, a probe site costs one 5-byte NOP (plus getting each argument
 * into a register), an is-enabled test `xor %eax,%eax` and a 3-byte NOP
 * (it yields 0).  Each site also leaves a record in the program's
 * `sonde_usdt` section: 8-aligned, the site's address (.quad), its kind
 * (.quad: 0 probe, 1 is-enabled), then three NUL-terminated strings: the
 * provider, the name as written, and the argument registers the assembler
 * chose ("%rbx %rax").  The kernel reads the section from the program's
 * file when a description first names the provider.  Enabled, the site's
 * first byte is a trap: a probe site fires with the registers' values, an
 * is-enabled site yields 1.
 */
#ifndef SONDE_USDT_H
#define SONDE_USDT_H

#include <stdint.h>

#define USDT_RECORD(prov, name, kind, regs) \
	".pushsection sonde_usdt, \"a\", @progbits\n\t" \
	".balign 8\n\t" \
	".quad 990b, " #kind "\n\t" \
	".asciz \"" #prov "\", \"" #name "\", \"" regs "\"\n\t" \
	".popsection"

/* The machine's site instructions (userland/libc/<machine>/usdt_isa.h). */
#include "usdt_isa.h"

#define USDT_SITE(prov, name, regs, ...) \
	__asm__ volatile("990: " USDT_SITE_INSN "\n\t" \
	                 USDT_RECORD(prov, name, 0, regs) :: __VA_ARGS__)

#define USDT_ARG(x) "r"((uint64_t)(x))

#define DTRACE_IS_ENABLED(prov, name) ({ \
	int usdt_on_; \
	__asm__ volatile("990: " USDT_IS_ENABLED_INSN "\n\t" \
	                 USDT_RECORD(prov, name, 1, "") : USDT_IS_ENABLED_OUT(usdt_on_) :: "cc"); \
	usdt_on_; })

#define DTRACE_PROBE(prov, name)  USDT_SITE(prov, name, "")
#define DTRACE_PROBE0(prov, name) USDT_SITE(prov, name, "")
#define DTRACE_PROBE1(prov, name, a0) USDT_SITE(prov, name, "%0", USDT_ARG(a0))
#define DTRACE_PROBE2(prov, name, a0, a1) \
	USDT_SITE(prov, name, "%0 %1", USDT_ARG(a0), USDT_ARG(a1))
#define DTRACE_PROBE3(prov, name, a0, a1, a2) \
	USDT_SITE(prov, name, "%0 %1 %2", USDT_ARG(a0), USDT_ARG(a1), USDT_ARG(a2))
#define DTRACE_PROBE4(prov, name, a0, a1, a2, a3) \
	USDT_SITE(prov, name, "%0 %1 %2 %3", USDT_ARG(a0), USDT_ARG(a1), USDT_ARG(a2), USDT_ARG(a3))
#define DTRACE_PROBE5(prov, name, a0, a1, a2, a3, a4) \
	USDT_SITE(prov, name, "%0 %1 %2 %3 %4", USDT_ARG(a0), USDT_ARG(a1), USDT_ARG(a2), \
	          USDT_ARG(a3), USDT_ARG(a4))
#define DTRACE_PROBE6(prov, name, a0, a1, a2, a3, a4, a5) \
	USDT_SITE(prov, name, "%0 %1 %2 %3 %4 %5", USDT_ARG(a0), USDT_ARG(a1), USDT_ARG(a2), \
	          USDT_ARG(a3), USDT_ARG(a4), USDT_ARG(a5))

#endif
