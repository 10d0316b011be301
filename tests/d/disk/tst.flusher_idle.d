/*
 * ASSERTION: with nothing dirty the buffer cache's flusher does not run:
 * it sleeps until a block is dirtied (kernel/bcache.c), so over 3 s of an
 * idle guest with /disk mounted the bflush thread never goes on CPU.
 * @@options: -q
 */
BEGIN
{
	@ = sum(0);
}

sched:::on-cpu
/stringof(curthread->t_name) == "bflush"/
{
	@ = sum(1);
}

tick-3s
{
	exit(0);
}

END
{
	printa("bflush on-cpu %@d\n", @);
}
