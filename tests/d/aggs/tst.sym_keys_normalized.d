/*
 * ASSERTION: aggregation keys made with func(), sym() and mod() are
 * normalized before they are merged, as DTrace does: every address inside
 * one function is one row for func() and sym(), every kernel address one
 * "kernel" row for mod(), in the default output and in printa(); trunc()
 * of such an aggregation removes all the addresses merged into a row.
 * churn 3 calls churn_round three times from one place in wl_churn_main.
 * @@options: -q -c 'churn 3'
 */
fbt::churn_round:entry
{
	@f[func(caller)] = count();
	@f[func(caller + 1)] = count();
	@f[func(caller - 1)] = count();
	@s[sym(caller + 2)] = count();
	@s[sym(caller)] = count();
	@m[mod(caller)] = count();
	@m[mod(caller + 3)] = count();
	@t[func(caller)] = count();
	@t[func(caller + 1)] = count();
	@t[func(caller + 2)] = count();
}

fbt::churn_alloc_batch:entry
/n++ == 0/
{
	@m[mod(caller)] = count();
	@t[func(caller)] = count();
}

END
{
	printa("printa: %A %@d\n", @m);
	trunc(@t, 1);
}
