/*
 * usdt_isa.h - x86_64: the instructions of a USDT site (userland/libc/usdt.h).
 *
 * A probe site is a 5-byte NOP; an is-enabled site `xor %eax,%eax` and a
 * 3-byte NOP, its result in %eax.  Enabled, the site's first byte becomes
 * the pid provider's trap (arch/x86_64/pid_isa.c).
 */
#define USDT_SITE_INSN       ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00"
#define USDT_IS_ENABLED_INSN "xorl %%eax, %%eax\n\t.byte 0x0f, 0x1f, 0x00"
#define USDT_IS_ENABLED_OUT  "=a"
/* A program's own breakpoint (pidloop -t): the trap the pid provider leaves alone. */
#define USDT_BREAKPOINT_INSN "int3"
