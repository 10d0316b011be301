/*
 * -x oformat=json: sym(), func() and mod() as strings, in a record and as
 * aggregation keys (normalized to the function, as in text output); with
 * quiet, the clause that only assigns leaves no line.  churn 1 calls
 * churn_round once, from wl_churn_main.
 */
/* @@options: -q -x oformat=json -c 'churn 1' */

fbt::churn_round:entry
{
	c = caller;
	@f[func(caller + 1)] = count();
	@m[mod(caller), probefunc] = sum(3);
}

END
{
	func(c);
	mod(c);
}
