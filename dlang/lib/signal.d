/*
 * signal.d: the signal numbers, by name, as D inlines.
 *
 * Part of Sonde's D library (dlang/dt_lib.c).  The values are the ones
 * Sonde's kernel and C library use, Linux's (kernel/proc.h), so that
 * raise(SIGUSR1) sends what a user program's handler for SIGUSR1 expects
 * and `args[2] == SIGCHLD` at proc:::signal-send matches, as DTrace's
 * signal.d is its own system's.  Numbers 1 to 9, 11, 13, 14 and 15 are
 * illumos's too (SIGINT, SIGKILL, SIGTERM ... read as in the Guide's
 * examples); SIGBUS, SIGUSR1, SIGCHLD, SIGSTOP, SIGCONT and the rest
 * differ.  raise() signals the current user process (trace/destruct.c); a
 * kernel thread takes no signals.
 */

inline int SIGHUP = 1;		/* hangup */
inline int SIGINT = 2;		/* interrupt */
inline int SIGQUIT = 3;		/* quit */
inline int SIGILL = 4;		/* illegal instruction */
inline int SIGTRAP = 5;		/* trace trap */
inline int SIGABRT = 6;		/* abort */
inline int SIGIOT = 6;		/* the same as SIGABRT */
inline int SIGBUS = 7;		/* bus error */
inline int SIGFPE = 8;		/* floating-point exception */
inline int SIGKILL = 9;		/* kill (cannot be caught or ignored) */
inline int SIGUSR1 = 10;	/* user signal 1 */
inline int SIGSEGV = 11;	/* segmentation violation */
inline int SIGUSR2 = 12;	/* user signal 2 */
inline int SIGPIPE = 13;	/* write on a pipe with no one to read it */
inline int SIGALRM = 14;	/* alarm clock */
inline int SIGTERM = 15;	/* software termination signal */
inline int SIGSTKFLT = 16;	/* coprocessor stack fault */
inline int SIGCHLD = 17;	/* child status changed */
inline int SIGCLD = 17;		/* the same as SIGCHLD */
inline int SIGCONT = 18;	/* continue a stopped process */
inline int SIGSTOP = 19;	/* stop (cannot be caught or ignored) */
inline int SIGTSTP = 20;	/* stop from the terminal */
inline int SIGTTIN = 21;	/* background read from the terminal */
inline int SIGTTOU = 22;	/* background write to the terminal */
inline int SIGURG = 23;		/* urgent socket condition */
inline int SIGXCPU = 24;	/* CPU time limit exceeded */
inline int SIGXFSZ = 25;	/* file size limit exceeded */
inline int SIGVTALRM = 26;	/* virtual timer expired */
inline int SIGPROF = 27;	/* profiling timer expired */
inline int SIGWINCH = 28;	/* window size changed */
inline int SIGIO = 29;		/* pollable event */
inline int SIGPOLL = 29;	/* the same as SIGIO */
inline int SIGPWR = 30;		/* power failure */
inline int SIGSYS = 31;		/* bad system call */
inline int SIGRTMIN = 32;	/* the first real-time signal */
inline int SIGRTMAX = 64;	/* the last real-time signal */
