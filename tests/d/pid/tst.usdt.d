/*
 * ASSERTION: USDT probes of /bin/pidloop 3 (userland/libc/usdt.h) are
 * pidloop<PID>:pidloop:<function>:<name>, "__" in the name written as "-";
 * step fires once per call of outer with its two arguments (i and the
 * running total), and while it is enabled the program's is-enabled test
 * of it says yes each time (loop-done's arg0).
 * @@options: -q -c '/bin/pidloop 3'
 */
pidloop$target:::step
{
	printf("%s:%s:%s i %d total %d\n", probemod, probefunc, probename, arg0, arg1);
}

pidloop$target::main:loop-done
{
	printf("%s %d %s: is-enabled said yes %d times\n", probefunc,
	    probeprov == strjoin("pidloop", lltostr($target)), probename, arg0);
}
