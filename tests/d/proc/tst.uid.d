/*
 * ASSERTION: uid and gid are the process's real ids, and curpsinfo's
 * pr_uid, pr_euid, pr_gid and pr_egid its real and effective ones: a
 * program started as root (/bin/credcheck -s 1000:50 calls setgid(50),
 * then setuid(1000)) is uid 0 before its setuid and 1000 after, its group
 * 50 from the setgid on; $uid and $gid are the consumer's (root, 0), as
 * are BEGIN's uid and gid (the console's dtrace runs as root).
 * @@options: -q -c '/bin/credcheck -s 1000:50'
 */
BEGIN
{
	printf("BEGIN: uid %d gid %d $uid %d $gid %d\n", uid, gid, $uid, $gid);
}

syscall::setgid:entry, syscall::setuid:entry
/pid == $target/
{
	printf("%s(%d) entry: uid %d gid %d pr_uid %d pr_euid %d pr_gid %d pr_egid %d\n",
	    probefunc, arg0, uid, gid, curpsinfo->pr_uid, curpsinfo->pr_euid,
	    curpsinfo->pr_gid, curpsinfo->pr_egid);
}

syscall::setgid:return, syscall::setuid:return
/pid == $target/
{
	printf("%s return %d: uid %d gid %d pr_uid %d pr_euid %d pr_gid %d pr_egid %d\n",
	    probefunc, arg0, uid, gid, curpsinfo->pr_uid, curpsinfo->pr_euid,
	    curpsinfo->pr_gid, curpsinfo->pr_egid);
}

proc:::exit
/pid == $target/
{
	printf("exit: uid %d, the struct proc's pr_uid %d pr_gid %d\n", uid,
	    xlate <psinfo_t *> (curthread->t_proc)->pr_uid,
	    xlate <psinfo_t *> (curthread->t_proc)->pr_gid);
}
