/*
 * ASSERTION: "a.out" names the program's module, as in DTrace: a pid
 * probe and a USDT probe described with module a.out fire, and probemod
 * is the program's real name (pidloop).
 * @@options: -q -c '/bin/pidloop 3'
 */
pid$target:a.out:inner:entry
{
	@calls[probemod, probefunc] = count();
}

pidloop$target:a.out::step
{
	@steps[probemod, probename] = count();
}

END
{
	printa("%s`%s entered %@d times\n", @calls);
	printa("%s %s fired %@d times\n", @steps);
}
