#!/usr/sbin/dtrace -s
/*
 * errinfo.d - every system call that fails, as it returns: which process,
 * which call, and the error, by number, name and meaning; at the end, how
 * often each process got each error from each call.
 *
 * Columns (each failure):
 *   PID       the process
 *   COMM      its name (execname)
 *   SYSCALL   the call (probefunc)
 *   ERR       errno
 *   NAME      errno's name (ENOENT ...), "?" for a number not known here
 *   DESC      what it means
 * Columns (the summary at the end, commonest last):
 *   COMM SYSCALL ERR NAME COUNT
 *
 *   sonde# dtrace -s /scripts/errinfo.d -c '/bin/cat /nonexist'
 *   sonde# dtrace -s /scripts/errinfo.d            (Ctrl-C to stop)
 *
 * The names are the kernel's errors (kernel/proc.h), by dlang/lib/errno.d's
 * names, which hold the numbers the kernel returns.
 *
 * Providers: syscall (every return; errno is set when the call failed).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
{
	name[EPERM] = "EPERM";		desc[EPERM] = "not owner";
	name[ENOENT] = "ENOENT";	desc[ENOENT] = "no such file or directory";
	name[ESRCH] = "ESRCH";		desc[ESRCH] = "no such process";
	name[EINTR] = "EINTR";		desc[EINTR] = "interrupted system call";
	name[EIO] = "EIO";		desc[EIO] = "I/O error";
	name[ENXIO] = "ENXIO";		desc[ENXIO] = "no such device or address";
	name[E2BIG] = "E2BIG";		desc[E2BIG] = "argument list too long";
	name[ENOEXEC] = "ENOEXEC";	desc[ENOEXEC] = "exec format error";
	name[EBADF] = "EBADF";		desc[EBADF] = "bad file number";
	name[ECHILD] = "ECHILD";	desc[ECHILD] = "no child processes";
	name[EAGAIN] = "EAGAIN";	desc[EAGAIN] = "resource temporarily unavailable";
	name[ENOMEM] = "ENOMEM";	desc[ENOMEM] = "not enough memory";
	name[EACCES] = "EACCES";	desc[EACCES] = "permission denied";
	name[EFAULT] = "EFAULT";	desc[EFAULT] = "bad address";
	name[EBUSY] = "EBUSY";		desc[EBUSY] = "device busy";
	name[EEXIST] = "EEXIST";	desc[EEXIST] = "file exists";
	name[EXDEV] = "EXDEV";		desc[EXDEV] = "cross-device link";
	name[ENODEV] = "ENODEV";	desc[ENODEV] = "no such device";
	name[ENOTDIR] = "ENOTDIR";	desc[ENOTDIR] = "not a directory";
	name[EISDIR] = "EISDIR";	desc[EISDIR] = "is a directory";
	name[EINVAL] = "EINVAL";	desc[EINVAL] = "invalid argument";
	name[EMFILE] = "EMFILE";	desc[EMFILE] = "too many open files";
	name[ENOTTY] = "ENOTTY";	desc[ENOTTY] = "inappropriate ioctl for device";
	name[EFBIG] = "EFBIG";		desc[EFBIG] = "file too large";
	name[ENOSPC] = "ENOSPC";	desc[ENOSPC] = "no space left on device";
	name[ESPIPE] = "ESPIPE";	desc[ESPIPE] = "illegal seek";
	name[EROFS] = "EROFS";		desc[EROFS] = "read-only file system";
	name[EPIPE] = "EPIPE";		desc[EPIPE] = "broken pipe";
	name[ERANGE] = "ERANGE";	desc[ERANGE] = "result too large";
	name[ENAMETOOLONG] = "ENAMETOOLONG";	desc[ENAMETOOLONG] = "file name too long";
	name[ENOSYS] = "ENOSYS";	desc[ENOSYS] = "no such system call";
	name[ENOTEMPTY] = "ENOTEMPTY";	desc[ENOTEMPTY] = "directory not empty";

	printf("%6s %-16s %-12s %4s %-12s %s\n", "PID", "COMM", "SYSCALL",
	    "ERR", "NAME", "DESC");
}

syscall:::return
/errno != 0 && pid != $pid/
{
	this->name = name[errno] != "" ? name[errno] : "?";
	printf("%6d %-16s %-12s %4d %-12s %s\n", pid, execname, probefunc,
	    errno, this->name, desc[errno]);
	@errs[execname, probefunc, errno, this->name] = count();
}

dtrace:::END
{
	printf("\n%-16s %-12s %4s %-12s %6s\n", "COMM", "SYSCALL", "ERR", "NAME",
	    "COUNT");
	printa("%-16s %-12s %4d %-12s %@6d\n", @errs);
}
