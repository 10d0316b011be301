#!/usr/sbin/dtrace -s
/*
 * dtruss.d - truss for one process: each system call it makes, as it
 * returns, with its first three arguments and its result, or -1 and the
 * error; the elapsed time of each.
 *
 * Columns:
 *   PID         the process ($target)
 *   ELAPSED(us) microseconds from entry to return
 *   CALL        NAME(ARG0, ARG1, ARG2): the arguments in hex, except a
 *               path (open, creat, stat, lstat, mkdir, rmdir, unlink,
 *               execve, rename: the first argument), copied in at entry
 *               and printed in quotes
 *   = RESULT    the return value (arg0 at return); a failed call is
 *               "= -1 Err#N" with errno N (errinfo.d names it)
 *
 *   sonde# dtrace -s /scripts/dtruss.d -c '/bin/cat /scripts/hello.d'
 *   sonde# dtrace -s /scripts/dtruss.d -p PID
 *
 * It needs -c or -p: without, Sonde's compiler stops at "macro variable
 * $target is not defined" (a DTrace that reads $target as 0 gets the
 * message of the first BEGIN clause).
 * exit and exit_group, which do not return, are printed at entry with
 * "= ?".
 *
 * Providers: syscall (every entry and return of $target).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
/$target == 0/
{
	printf("dtruss.d: give a process: -c 'COMMAND' or -p PID\n");
	exit(1);
}

dtrace:::BEGIN
/$target != 0/
{
	printf("%6s %11s  %s\n", "PID", "ELAPSED(us)", "CALL = RESULT");
}

syscall:::entry
/pid == $target/
{
	self->a0 = arg0;
	self->a1 = arg1;
	self->a2 = arg2;
	self->ts = timestamp;
}

syscall::open:entry, syscall::creat:entry, syscall::stat:entry,
syscall::lstat:entry, syscall::mkdir:entry, syscall::rmdir:entry,
syscall::unlink:entry, syscall::execve:entry, syscall::rename:entry
/pid == $target/
{
	self->path = copyinstr(arg0);
	self->haspath = 1;
}

syscall::exit:entry, syscall::exit_group:entry
/pid == $target/
{
	printf("%6d %11s  %s(0x%x) = ?\n", pid, "-", probefunc, arg0);
	self->ts = 0;
}

syscall:::return
/self->ts && self->haspath/
{
	printf("%6d %11d  %s(\"%s\", 0x%x, 0x%x)", pid,
	    (timestamp - self->ts) / 1000, probefunc, self->path, self->a1,
	    self->a2);
}

syscall:::return
/self->ts && !self->haspath/
{
	printf("%6d %11d  %s(0x%x, 0x%x, 0x%x)", pid,
	    (timestamp - self->ts) / 1000, probefunc, self->a0, self->a1,
	    self->a2);
}

syscall:::return
/self->ts && errno == 0/
{
	printf(" = %d\n", (long)arg0);
}

syscall:::return
/self->ts && errno != 0/
{
	printf(" = -1 Err#%d\n", errno);
}

syscall:::return
/self->ts/
{
	self->ts = 0;
	self->haspath = 0;
	self->path = "";
}
