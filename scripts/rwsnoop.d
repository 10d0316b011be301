#!/usr/sbin/dtrace -s
/*
 * rwsnoop.d - every read(2) and write(2) as it completes: who, which way,
 * how many bytes and on which file.
 *
 * Columns:
 *   PID     the process
 *   COMM    its name (execname)
 *   D       R for a read, W for a write
 *   BYTES   the bytes moved (the return value; -1 for a failed call)
 *   FILE    the descriptor's path (fds[fd].fi_pathname, dlang/lib/io.d):
 *           <unknown> for a pipe or the console, <none> for a closed fd
 *
 *   sonde# dtrace -s /scripts/rwsnoop.d -c 'cat /scripts/hello.d'
 *   sonde# dtrace -s /scripts/rwsnoop.d            (Ctrl-C to stop)
 *
 * The file is read at entry, while the descriptor is certainly open.
 * dtrace's own reads and writes (its output) are left out: tracing them
 * would make output that makes more output.
 *
 * Providers: syscall (read and write entry and return).
 */
#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
{
	printf("%6s %-16s %1s %7s %s\n", "PID", "COMM", "D", "BYTES", "FILE");
}

syscall::read:entry,
syscall::write:entry
/pid != $pid/
{
	self->file = fds[arg0].fi_pathname;
	self->in = 1;
}

syscall::read:return,
syscall::write:return
/self->in/
{
	printf("%6d %-16s %1s %7d %s\n", pid, execname,
	    probefunc == "read" ? "R" : "W", (int)arg0, self->file);
	self->in = 0;
	self->file = "";
}
