/*
 * ASSERTION: ustack() at a pid entry probe of a frameless leaf (inner) and
 * at an offset inside a function with a frame (outer+0xb) is the user call
 * chain, printed as DTrace prints it (prog`func at a function's first
 * byte, prog`func+0x1c elsewhere); ustack(2) stops after two frames, as
 * a ustack() key with no count does under ustackframes=2; ustackdepth
 * counts the frames; ucaller is inner's caller; aggregations keyed by
 * ustack() are printed at exit, after the process has gone; the kernel's
 * stack() of a user probe is empty (stackdepth 0, caller 0).
 * @@options: -q -c '/bin/pidloop 2'
 */
#pragma D option ustackframes=2

pid$target::inner:entry
/arg0 == 1/
{
	ustack(10);
	ustack(2);
	printf("depth %d caller-in-outer %d\n", ustackdepth, ucaller > uregs[R_RIP]);
	printf("kernel stackdepth %d caller %d\n", stackdepth, caller);
}

pid$target::outer:b
{
	@[ustack()] = count();
}
