/*
 * signal.d: the signal numbers, by name, as D inlines.
 *
 * Part of Sonde's D library (dlang/dt_lib.c).  The values are illumos's
 * (<sys/iso/signal_iso.h>), DTrace's own system: raise(SIGINT) and
 * `arg0 == SIGKILL` read as the Dynamic Tracing Guide's examples do.  Sonde's
 * threads take no signals (raise() does nothing; docs/d-language.md).
 */

inline int SIGHUP = 1;			/* hangup */
inline int SIGINT = 2;			/* interrupt (rubout) */
inline int SIGQUIT = 3;			/* quit (ASCII FS) */
inline int SIGILL = 4;			/* illegal instruction */
inline int SIGTRAP = 5;			/* trace trap */
inline int SIGIOT = 6;			/* IOT instruction */
inline int SIGABRT = 6;			/* abort, the same as SIGIOT */
inline int SIGEMT = 7;			/* EMT instruction */
inline int SIGFPE = 8;			/* floating point exception */
inline int SIGKILL = 9;			/* kill (cannot be caught or ignored) */
inline int SIGBUS = 10;			/* bus error */
inline int SIGSEGV = 11;		/* segmentation violation */
inline int SIGSYS = 12;			/* bad argument to a system call */
inline int SIGPIPE = 13;		/* write on a pipe with no one to read it */
inline int SIGALRM = 14;		/* alarm clock */
inline int SIGTERM = 15;		/* software termination signal */
inline int SIGUSR1 = 16;		/* user-defined signal 1 */
inline int SIGUSR2 = 17;		/* user-defined signal 2 */
inline int SIGCLD = 18;			/* child status change */
inline int SIGCHLD = 18;		/* child status change, the same as SIGCLD */
inline int SIGPWR = 19;			/* power-fail restart */
inline int SIGWINCH = 20;		/* window size change */
inline int SIGURG = 21;			/* urgent socket condition */
inline int SIGPOLL = 22;		/* pollable event */
inline int SIGIO = 22;			/* socket I/O possible, the same as SIGPOLL */
inline int SIGSTOP = 23;		/* stop (cannot be caught or ignored) */
inline int SIGTSTP = 24;		/* user stop requested from the tty */
inline int SIGCONT = 25;		/* stopped process continued */
inline int SIGTTIN = 26;		/* background tty read attempted */
inline int SIGTTOU = 27;		/* background tty write attempted */
inline int SIGVTALRM = 28;		/* virtual timer expired */
inline int SIGPROF = 29;		/* profiling timer expired */
inline int SIGXCPU = 30;		/* CPU limit exceeded */
inline int SIGXFSZ = 31;		/* file size limit exceeded */
inline int SIGWAITING = 32;		/* reserved for the threads library */
inline int SIGLWP = 33;			/* reserved for the threads library */
inline int SIGFREEZE = 34;		/* checkpoint freeze */
inline int SIGTHAW = 35;		/* checkpoint thaw */
inline int SIGCANCEL = 36;		/* thread cancellation */
inline int SIGLOST = 37;		/* resource lost */
inline int SIGXRES = 38;		/* resource control exceeded */
inline int SIGJVM1 = 39;		/* reserved for the Java virtual machine */
inline int SIGJVM2 = 40;		/* reserved for the Java virtual machine */
inline int SIGINFO = 41;		/* information request */
inline int SIGRTMIN = 42;		/* first real-time signal */
inline int SIGRTMAX = 73;		/* last real-time signal */
