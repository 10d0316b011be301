/*
 * ASSERTION: ustack() keys print as DTrace prints stack keys: without a
 * format, a newline, then each frame on its own line indented by
 * stackindent (14), then the other keys and the value; with %k in a
 * printa format, a newline, then the frames indented by the conversion's
 * width when it is left-aligned (%-8k) and not at all otherwise (%k),
 * then the rest of the format.  usym(), umod() and uaddr() keys print as
 * text in "  %-50s".
 * @@options: -q -c '/bin/pidloop 2'
 */
pid$target::inner:entry
/arg0 == 1/
{
	@u[ustack(2), 7] = count();
	@s[usym(uregs[R_RIP])] = count();
	@m[umod(uregs[R_RIP])] = count();
	@a[uaddr(uregs[R_RIP])] = count();
}

END
{
	printa(@u);
	printa("%-8k|%d|%@d\n", @u);
	printa("%k|\n", @u);
}
