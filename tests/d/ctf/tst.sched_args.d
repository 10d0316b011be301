/*
 * ASSERTION: sched:::wakeup's args[0] and args[1] are the woken thread as
 * an lwpsinfo_t * and a psinfo_t *, translated (dlang/lib/procfs.d) from
 * the kernel's struct thread the probe passes as arg0: their members are
 * that thread's, not the running one's.  Each check is the minimum over
 * every wakeup (1: it held every time), so the output does not depend on
 * how many wakeups there were or on which CPUs.
 * @@options: -q -c 'pingpong 3'
 */
sched:::wakeup
{
	this->t = (struct thread *)arg0;
	@lwpid = min(args[0]->pr_lwpid == this->t->t_tid);
	@addr = min(args[0]->pr_addr == arg0);
	@name = min(args[0]->pr_name == stringof(this->t->t_name));
	@fname = min(args[1]->pr_fname == stringof(this->t->t_name));
	@pid = min(args[1]->pr_pid == (this->t->t_proc != 0 ?
	    this->t->t_proc->p_pid : this->t->t_pid));
}

END
{
	printa("lwpid: %@d\n", @lwpid);
	printa("addr: %@d\n", @addr);
	printa("name: %@d\n", @name);
	printa("fname: %@d\n", @fname);
	printa("pid: %@d\n", @pid);
}
