/*
 * regs.d: register names for uregs[], on sparc64.
 *
 * Part of Sonde's D library (dlang/dt_lib.c); the machine-specific file of
 * it, installed as usr/lib/dtrace/regs.d with the portable ones.  The names
 * are the Dynamic Tracing Guide's SPARC uregs[] table (R_G0..R_G7,
 * R_O0..R_O7, R_L0..R_L7, R_I0..R_I7, R_CCR, R_PC, R_NPC, R_Y, R_ASI,
 * R_FPRS) and its common aliases (R_PC, R_SP, R_R0, R_R1, and R_PS, R_FP).
 *
 * The index layout, which the machine half's uregs[] reader
 * (arch/sparc64/pid_isa.c, pid_isa_uregs) follows:
 *
 *   0..7     %g0..%g7   the globals (%g0 reads 0)
 *   8..15    %o0..%o7   the outs of the user's window at the trap (%o6 is
 *                       the user's %sp, biased by 2047 as the ABI has it)
 *   16..23   %l0..%l7   the locals of that window (from its save area on
 *                       the user's stack)
 *   24..31   %i0..%i7   its ins (%i6 the frame pointer, %i7 the call site)
 *   32       %ccr       the condition codes (TSTATE's CCR field)
 *   33       %pc        where the user thread resumes (TPC)
 *   34       %npc       the next PC (TNPC)
 *   35       %y
 *   36       %asi       (TSTATE's ASI field)
 *   37       %fprs
 *
 * 0..31 are the order sdt_isa_regindex uses too (arch/sparc64/sdt_isa.c).
 * An index past 37 is not a register: uregs[] gives an illegal-operation
 * fault for it.
 */

inline int R_G0 = 0;
inline int R_G1 = 1;
inline int R_G2 = 2;
inline int R_G3 = 3;
inline int R_G4 = 4;
inline int R_G5 = 5;
inline int R_G6 = 6;
inline int R_G7 = 7;
inline int R_O0 = 8;
inline int R_O1 = 9;
inline int R_O2 = 10;
inline int R_O3 = 11;
inline int R_O4 = 12;
inline int R_O5 = 13;
inline int R_O6 = 14;
inline int R_O7 = 15;
inline int R_L0 = 16;
inline int R_L1 = 17;
inline int R_L2 = 18;
inline int R_L3 = 19;
inline int R_L4 = 20;
inline int R_L5 = 21;
inline int R_L6 = 22;
inline int R_L7 = 23;
inline int R_I0 = 24;
inline int R_I1 = 25;
inline int R_I2 = 26;
inline int R_I3 = 27;
inline int R_I4 = 28;
inline int R_I5 = 29;
inline int R_I6 = 30;
inline int R_I7 = 31;
inline int R_CCR = 32;
inline int R_PC = 33;
inline int R_NPC = 34;
inline int R_Y = 35;
inline int R_ASI = 36;
inline int R_FPRS = 37;

inline int R_PS = R_CCR;
inline int R_SP = R_O6;
inline int R_FP = R_I6;
inline int R_R0 = R_O0;
inline int R_R1 = R_O1;
