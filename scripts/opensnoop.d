#!/usr/sbin/dtrace -s
/*
 * opensnoop.d - every open(2) and creat(2): who opened what, and the
 * descriptor it got or why it failed.
 *
 * Columns:
 *   PID    the process
 *   COMM   its name (execname)
 *   FD     the descriptor returned, or -1 when the open failed
 *   ERR    errno of a failed open (0 when it succeeded)
 *   PATH   the path asked for, copied in at entry (the argument is a user
 *          address, readable only while the call is in progress)
 *
 *   sonde# dtrace -s /scripts/opensnoop.d -c 'cat /scripts/hello.d'
 *   sonde# dtrace -s /scripts/opensnoop.d          (Ctrl-C to stop)
 *
 * Providers: syscall (open and creat entry and return; Sonde has no
 * openat).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
{
	printf("%6s %-16s %4s %4s %s\n", "PID", "COMM", "FD", "ERR", "PATH");
}

syscall::open:entry,
syscall::creat:entry
{
	self->path = copyinstr(arg0);
	self->in = 1;
}

syscall::open:return,
syscall::creat:return
/self->in/
{
	printf("%6d %-16s %4d %4d %s\n", pid, execname, (int)arg0, errno,
	    self->path);
	self->in = 0;
	self->path = "";
}
