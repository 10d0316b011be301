/*
 * ASSERTION: pid probes on /bin/pidloop 3: inner's entry sees its two
 * arguments (i, 10 i) and its return sees the offset of its ret (4) and
 * the return value (11 i); the probe is named pid<target>:pidloop:inner:...;
 * outer's entry (an emulated push) and the offset probe on its call (0xb)
 * fire in order, where uregs[R_RIP] is the probed instruction and
 * uregs[R_RDI] outer's argument; the program computes the right total
 * (exit status 0) with every probe in place.
 * @@options: -q -c '/bin/pidloop 3'
 */
pid$target::outer:entry
{
	self->start = uregs[R_RIP];
	printf("pid$target:%s:%s:%s %d\n", probemod, probefunc, probename,
	    probeprov == strjoin("pid", lltostr($target)));
}

pid$target::outer:b
{
	printf("outer+%x rdi %d\n", uregs[R_RIP] - self->start, uregs[R_RDI]);
}

pid$target::inner:entry
{
	printf("inner(%d, %d) pc==rip %d\n", arg0, arg1, uregs[R_PC] == uregs[R_RIP]);
}

pid$target::inner:return
{
	printf("inner returned %d at +%x rax %d\n", arg1, arg0, uregs[R_RAX]);
}

proc:::exit
/pid == $target/
{
	printf("exit reason %d\n", arg0);
}

syscall::exit_group:entry
/pid == $target/
{
	printf("status %d\n", arg0);
}
