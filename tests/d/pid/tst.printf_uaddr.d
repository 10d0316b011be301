/*
 * ASSERTION: with -c (or -p), printf's and printa's %A name a user
 * address from the process's program, as uaddr() does: prog`func at a
 * function's first byte, prog`func+0x4 inside it; widths apply to the
 * name.  (Before, %A looked the address up among the kernel's symbols and
 * printed hex.)
 * @@options: -q -c '/bin/pidloop 3'
 */
pid$target::outer:entry
/!done++/
{
	printf("%A|%A|%-16A|\n", uregs[R_PC], uregs[R_PC] + 4, uregs[R_PC]);
}

pid$target::outer:entry
{
	@[uregs[R_PC]] = count();
}

END
{
	printa("%A %@d\n", @);
}
