/*
 * ASSERTION: sched:::wakeup's args[0] and args[1] are the woken thread as
 * an lwpsinfo_t * and a psinfo_t *, translated (dlang/lib/procfs.d) from
 * the kernel's struct thread the probe passes as arg0: their members are
 * that thread's, not the running one's.
 * @@options: -q -c 'pingpong 3'
 */
sched:::wakeup
/n++ < 1/
{
	this->t = (struct thread *)arg0;
	printf("lwpid: %d\n", args[0]->pr_lwpid == this->t->t_tid);
	printf("addr: %d\n", args[0]->pr_addr == arg0);
	printf("name: %d\n", args[0]->pr_name == stringof(this->t->t_name));
	printf("fname: %d\n", args[1]->pr_fname == stringof(this->t->t_name));
	printf("pid: %d\n", args[1]->pr_pid == (this->t->t_proc != 0 ?
	    this->t->t_proc->p_pid : this->t->t_pid));
}
