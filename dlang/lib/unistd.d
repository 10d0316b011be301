/*
 * unistd.d: the fault codes of the ERROR probe.
 *
 * Part of Sonde's D library (dlang/dt_lib.c).  An ERROR probe's arg4 is one
 * of these codes; they are the DIF fault codes of dif/dif.h (DIF_FAULT_*),
 * which are DTrace's own numbers, so an ERROR clause may test
 * `arg4 == DTRACEFLT_BADADDR` as the Dynamic Tracing Guide does.
 */

inline int DTRACEFLT_UNKNOWN = 0;	/* a fault of no known kind */
inline int DTRACEFLT_BADADDR = 1;	/* load or store at a bad address */
inline int DTRACEFLT_BADALIGN = 2;	/* misaligned load */
inline int DTRACEFLT_ILLOP = 3;		/* illegal operation */
inline int DTRACEFLT_DIVZERO = 4;	/* division or remainder by zero */
inline int DTRACEFLT_NOSCRATCH = 5;	/* scratch space exhausted */
inline int DTRACEFLT_KPRIV = 6;		/* kernel access not permitted */
inline int DTRACEFLT_UPRIV = 7;		/* user access not permitted */
inline int DTRACEFLT_TUPOFLOW = 8;	/* tuple stack overflow */
inline int DTRACEFLT_BADSTACK = 9;	/* bad stack */
