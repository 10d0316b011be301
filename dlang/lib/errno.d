/*
 * errno.d: the error numbers of errno, by name, as D inlines.
 *
 * Part of Sonde's D library (dlang/dt_lib.c), compiled before every program.
 * The values are the ones Sonde's system calls return, which are Linux's
 * (<asm-generic/errno.h>: the C library and the kernel share them,
 * kernel/proc.h), so that `errno == ENOSYS` and `trace(ENOENT)` mean what
 * the running system means, as DTrace's errno.d is its own system's
 * <sys/errno.h>.  Numbers 1 to 34 are illumos's too; above, the names are
 * the same and the numbers Linux's (ENOSYS 38, not illumos's 89).  The
 * aliases EWOULDBLOCK (EAGAIN), EDEADLOCK (EDEADLK) and ENOTSUP
 * (EOPNOTSUPP) are Linux's as well.
 */

inline int EPERM = 1;		/* operation not permitted */
inline int ENOENT = 2;		/* no such file or directory */
inline int ESRCH = 3;		/* no such process */
inline int EINTR = 4;		/* interrupted system call */
inline int EIO = 5;		/* I/O error */
inline int ENXIO = 6;		/* no such device or address */
inline int E2BIG = 7;		/* argument list too long */
inline int ENOEXEC = 8;		/* exec format error */
inline int EBADF = 9;		/* bad file number */
inline int ECHILD = 10;		/* no child processes */
inline int EAGAIN = 11;		/* try again */
inline int ENOMEM = 12;		/* out of memory */
inline int EACCES = 13;		/* permission denied */
inline int EFAULT = 14;		/* bad address */
inline int ENOTBLK = 15;	/* block device required */
inline int EBUSY = 16;		/* device or resource busy */
inline int EEXIST = 17;		/* file exists */
inline int EXDEV = 18;		/* cross-device link */
inline int ENODEV = 19;		/* no such device */
inline int ENOTDIR = 20;	/* not a directory */
inline int EISDIR = 21;		/* is a directory */
inline int EINVAL = 22;		/* invalid argument */
inline int ENFILE = 23;		/* file table overflow */
inline int EMFILE = 24;		/* too many open files */
inline int ENOTTY = 25;		/* not a typewriter */
inline int ETXTBSY = 26;	/* text file busy */
inline int EFBIG = 27;		/* file too large */
inline int ENOSPC = 28;		/* no space left on device */
inline int ESPIPE = 29;		/* illegal seek */
inline int EROFS = 30;		/* read-only file system */
inline int EMLINK = 31;		/* too many links */
inline int EPIPE = 32;		/* broken pipe */
inline int EDOM = 33;		/* math argument out of domain */
inline int ERANGE = 34;		/* math result not representable */
inline int EDEADLK = 35;	/* resource deadlock would occur */
inline int ENAMETOOLONG = 36;	/* file name too long */
inline int ENOLCK = 37;		/* no record locks available */
inline int ENOSYS = 38;		/* function not implemented */
inline int ENOTEMPTY = 39;	/* directory not empty */
inline int ELOOP = 40;		/* too many symbolic links */
inline int ENOMSG = 42;		/* no message of desired type */
inline int EIDRM = 43;		/* identifier removed */
inline int ECHRNG = 44;		/* channel number out of range */
inline int EL2NSYNC = 45;	/* level 2 not synchronized */
inline int EL3HLT = 46;		/* level 3 halted */
inline int EL3RST = 47;		/* level 3 reset */
inline int ELNRNG = 48;		/* link number out of range */
inline int EUNATCH = 49;	/* protocol driver not attached */
inline int ENOCSI = 50;		/* no CSI structure available */
inline int EL2HLT = 51;		/* level 2 halted */
inline int EBADE = 52;		/* invalid exchange */
inline int EBADR = 53;		/* invalid request descriptor */
inline int EXFULL = 54;		/* exchange full */
inline int ENOANO = 55;		/* no anode */
inline int EBADRQC = 56;	/* invalid request code */
inline int EBADSLT = 57;	/* invalid slot */
inline int EBFONT = 59;		/* bad font file format */
inline int ENOSTR = 60;		/* device not a stream */
inline int ENODATA = 61;	/* no data available */
inline int ETIME = 62;		/* timer expired */
inline int ENOSR = 63;		/* out of streams resources */
inline int ENONET = 64;		/* machine is not on the network */
inline int ENOPKG = 65;		/* package not installed */
inline int EREMOTE = 66;	/* object is remote */
inline int ENOLINK = 67;	/* link has been severed */
inline int EADV = 68;		/* advertise error */
inline int ESRMNT = 69;		/* srmount error */
inline int ECOMM = 70;		/* communication error on send */
inline int EPROTO = 71;		/* protocol error */
inline int EMULTIHOP = 72;	/* multihop attempted */
inline int EDOTDOT = 73;	/* RFS specific error */
inline int EBADMSG = 74;	/* not a data message */
inline int EOVERFLOW = 75;	/* value too large for defined data type */
inline int ENOTUNIQ = 76;	/* name not unique on network */
inline int EBADFD = 77;		/* file descriptor in bad state */
inline int EREMCHG = 78;	/* remote address changed */
inline int ELIBACC = 79;	/* cannot access a needed shared library */
inline int ELIBBAD = 80;	/* accessing a corrupted shared library */
inline int ELIBSCN = 81;	/* .lib section in a.out corrupted */
inline int ELIBMAX = 82;	/* too many shared libraries */
inline int ELIBEXEC = 83;	/* cannot exec a shared library directly */
inline int EILSEQ = 84;		/* illegal byte sequence */
inline int ERESTART = 85;	/* interrupted system call should be restarted */
inline int ESTRPIPE = 86;	/* streams pipe error */
inline int EUSERS = 87;		/* too many users */
inline int ENOTSOCK = 88;	/* socket operation on non-socket */
inline int EDESTADDRREQ = 89;	/* destination address required */
inline int EMSGSIZE = 90;	/* message too long */
inline int EPROTOTYPE = 91;	/* protocol wrong type for socket */
inline int ENOPROTOOPT = 92;	/* protocol not available */
inline int EPROTONOSUPPORT = 93;	/* protocol not supported */
inline int ESOCKTNOSUPPORT = 94;	/* socket type not supported */
inline int EOPNOTSUPP = 95;	/* operation not supported */
inline int EPFNOSUPPORT = 96;	/* protocol family not supported */
inline int EAFNOSUPPORT = 97;	/* address family not supported by protocol */
inline int EADDRINUSE = 98;	/* address already in use */
inline int EADDRNOTAVAIL = 99;	/* cannot assign requested address */
inline int ENETDOWN = 100;	/* network is down */
inline int ENETUNREACH = 101;	/* network is unreachable */
inline int ENETRESET = 102;	/* network dropped connection because of reset */
inline int ECONNABORTED = 103;	/* software caused connection abort */
inline int ECONNRESET = 104;	/* connection reset by peer */
inline int ENOBUFS = 105;	/* no buffer space available */
inline int EISCONN = 106;	/* transport endpoint is already connected */
inline int ENOTCONN = 107;	/* transport endpoint is not connected */
inline int ESHUTDOWN = 108;	/* cannot send after transport endpoint shutdown */
inline int ETOOMANYREFS = 109;	/* too many references */
inline int ETIMEDOUT = 110;	/* connection timed out */
inline int ECONNREFUSED = 111;	/* connection refused */
inline int EHOSTDOWN = 112;	/* host is down */
inline int EHOSTUNREACH = 113;	/* no route to host */
inline int EALREADY = 114;	/* operation already in progress */
inline int EINPROGRESS = 115;	/* operation now in progress */
inline int ESTALE = 116;	/* stale file handle */
inline int EDQUOT = 122;	/* quota exceeded */
inline int ECANCELED = 125;	/* operation canceled */
inline int EOWNERDEAD = 130;	/* owner died */
inline int ENOTRECOVERABLE = 131;	/* state not recoverable */
inline int EWOULDBLOCK = 11;		/* the same as EAGAIN */
inline int EDEADLOCK = 35;		/* the same as EDEADLK */
inline int ENOTSUP = 95;		/* the same as EOPNOTSUPP */
