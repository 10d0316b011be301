/*
 * usdt_isa.h - sparc64: the instructions of a USDT site (userland/libc/usdt.h).
 *
 * A probe site is one nop; an is-enabled site clears its result register
 * (`clr %reg`, the register the compiler chose); enabled, the site's word
 * becomes the pid provider's trap, and an is-enabled site's replay sets
 * that register to 1 (arch/sparc64/pid_isa.c).  The sonde_usdt records
 * are written as on x86_64.
 */
#define USDT_SITE_INSN       "nop"
#define USDT_IS_ENABLED_INSN "clr %0"
#define USDT_IS_ENABLED_OUT  "=r"
/* A program's own breakpoint (pidloop -t): `ta 1`, which the pid provider leaves alone. */
#define USDT_BREAKPOINT_INSN "ta 1"
