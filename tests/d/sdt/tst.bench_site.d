/*
 * ASSERTION: an SDT site fires once per pass when enabled, and its probe is
 * named sdt:kernel:<function holding the site>:<name with __ as ->.
 */
/* @@options: -q -c 'bench_calls -q sdt 7' */
sdt:::bench-site
{
	@[probeprov, probemod, probefunc, probename] = count();
}
