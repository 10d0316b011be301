/*
 * usdt_isa.h - sparc64: the instructions of a USDT site (userland/libc/usdt.h).
 *
 * A probe site is one nop; an is-enabled site clears its result register
 * (always 0: there is no pid provider on sparc64 yet, so no site is ever
 * enabled).  The sonde_usdt records are written as on x86_64.
 */
#define USDT_SITE_INSN       "nop"
#define USDT_IS_ENABLED_INSN "clr %0"
#define USDT_IS_ENABLED_OUT  "=r"
