/*
 * ASSERTION: ufunc(), usym(), uaddr() and umod() name user addresses from
 * the program's .symtab (prog`func, prog`func+0x1c, prog), as actions and
 * as aggregation keys: ufunc() keys merge every address of a function into
 * one row (outer's 20 probes, entry, return and 18 offsets, fired twice
 * each), umod() keys every address of the program.
 * @@options: -q -c '/bin/pidloop 2'
 */
pid$target::inner:entry
/arg0 == 1/
{
	usym(uregs[R_PC]);
	printf(" ");
	ufunc(ucaller);
	printf(" ");
	uaddr(ucaller);
	printf(" ");
	umod(ucaller);
	printf("\n");
}

pid$target::outer:
{
	@func[ufunc(uregs[R_PC])] = count();
	@mod[umod(uregs[R_PC])] = count();
}

pid$target::outer:1d
{
	@addr[uaddr(uregs[R_PC])] = count();
}
