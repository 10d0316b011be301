/*
 * ASSERTION: a USDT is-enabled test says no while its probe is disabled:
 * with only loop-done enabled, pidloop's test of step never says yes, and
 * the step sites (disabled NOPs) cost the program nothing it can see.
 * @@options: -q -c '/bin/pidloop 5'
 */
pidloop$target:::loop-done
{
	printf("is-enabled said yes %d times\n", arg0);
}

syscall::exit_group:entry
/pid == $target/
{
	printf("status %d\n", arg0);
}
