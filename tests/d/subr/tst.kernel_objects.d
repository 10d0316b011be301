/*
 * ASSERTION: the lock subroutines read Sonde's locks as DTrace reads
 * Solaris's: a mutex (lockstat's adaptive-acquire) is an adaptive mutex,
 * owned by the thread that just took it, whose owner is curthread and which
 * is no longer the releasing thread's once released (on several CPUs another
 * thread may take it at once, so only that is certain); a spinlock (spin-acquire) is a spin mutex,
 * owned while held, with no owner thread; the rw_ queries see a held lock as
 * held by a writer, never by readers.  progenyof() is true of the calling
 * process itself and false of a pid no process has.  cleanpath() and getmajor()/getminor() as documented.
 */
/* @@options: -q -c pingpong */

int a_done, r_done, s_done;

BEGIN
{
	printf("progenyof(pid) %d progenyof(pid + 100000) %d\n", progenyof(pid),
	    progenyof(pid + 100000));
	printf("%s\n", cleanpath("/foo/bar/../baz"));
	printf("%s\n", cleanpath("/foo/./bar//baz/"));
	printf("%s\n", cleanpath("/foo/bar/.."));
	printf("%s\n", cleanpath("/../../etc/passwd"));
	printf("%s\n", cleanpath("/foo/.bar/..baz/..."));
	printf("%u %u\n", getmajor((dev_t)0x0000002a00000007),
	    getminor((dev_t)0x0000002a00000007));
}

lockstat:::adaptive-acquire
/!a_done/
{
	a_done = 1;
	a_owned = mutex_owned((kmutex_t *)arg0);
	a_adaptive = mutex_type_adaptive((kmutex_t *)arg0);
	a_spin = mutex_type_spin((kmutex_t *)arg0);
	a_mine = mutex_owner((kmutex_t *)arg0) == (void *)curthread;
	a_rw = rw_read_held((krwlock_t *)arg0) * 100 +
	    rw_write_held((krwlock_t *)arg0) * 10 +
	    rw_iswriter((krwlock_t *)arg0);
}

lockstat:::adaptive-release
/!r_done/
{
	r_done = 1;
	r_mine = mutex_owner((kmutex_t *)arg0) == (void *)curthread;
}

lockstat:::spin-acquire
/!s_done/
{
	s_done = 1;
	s_owned = mutex_owned((kmutex_t *)arg0);
	s_adaptive = mutex_type_adaptive((kmutex_t *)arg0);
	s_spin = mutex_type_spin((kmutex_t *)arg0);
	s_owner = (uint64_t)mutex_owner((kmutex_t *)arg0);
}

lockstat:::
/a_done && r_done && s_done/
{
	exit(0);
}

END
{
	printf("mutex: owned %d adaptive %d spin %d owner-is-curthread %d rw %03d\n",
	    a_owned, a_adaptive, a_spin, a_mine, a_rw);
	printf("released: owner-is-curthread %d\n", r_mine);
	printf("spinlock: owned %d adaptive %d spin %d owner %d\n", s_owned,
	    s_adaptive, s_spin, s_owner);
}
