/*
 * regs.d: register names for uregs[], on x86_64.
 *
 * Part of Sonde's D library (dlang/dt_lib.c); the machine-specific file of
 * it, installed as usr/lib/dtrace/regs.d with the portable ones.  The
 * numbers are DTrace's for the Intel family (illumos): first the 32-bit
 * registers of i386 (R_GS .. R_SS, with the generic names R_PC, R_SP, R_PS,
 * R_R0 and R_R1 for them), then the 64-bit ones of amd64, which follow the
 * 19 i386 slots.  Sonde has no user processes yet, so uregs[] itself is
 * not there; the names are, so programs that use them compile.
 */

inline int R_GS = 0;
inline int R_FS = 1;
inline int R_ES = 2;
inline int R_DS = 3;
inline int R_EDI = 4;
inline int R_ESI = 5;
inline int R_EBP = 6;
inline int R_ESP = 7;
inline int R_EBX = 8;
inline int R_EDX = 9;
inline int R_ECX = 10;
inline int R_EAX = 11;
inline int R_TRAPNO = 12;
inline int R_ERR = 13;
inline int R_EIP = 14;
inline int R_CS = 15;
inline int R_EFL = 16;
inline int R_UESP = 17;
inline int R_SS = 18;

inline int R_PC = R_EIP;
inline int R_SP = R_UESP;
inline int R_PS = R_EFL;
inline int R_R0 = R_EAX;
inline int R_R1 = R_EBX;

/* amd64: slot 19 + the register's index in the 64-bit register set */
inline int R_R15 = 19 + 0;
inline int R_R14 = 19 + 1;
inline int R_R13 = 19 + 2;
inline int R_R12 = 19 + 3;
inline int R_R11 = 19 + 4;
inline int R_R10 = 19 + 5;
inline int R_R9 = 19 + 6;
inline int R_R8 = 19 + 7;
inline int R_RDI = 19 + 8;
inline int R_RSI = 19 + 9;
inline int R_RBP = 19 + 10;
inline int R_RBX = 19 + 11;
inline int R_RDX = 19 + 12;
inline int R_RCX = 19 + 13;
inline int R_RAX = 19 + 14;
inline int R_RIP = 19 + 17;
inline int R_RFL = 19 + 19;
inline int R_RSP = 19 + 20;
