/*
 * ASSERTION: baggage crosses fork and pipes.  The child of fork starts with
 * a copy of its parent's baggage (its lwp-start sees who and n; the
 * parent's own lwp-start, before the fork, sees none), and each pipe write
 * keeps the writer's baggage for the read that consumes it: pingpong's two
 * processes add one to bag->hop (a sum kept in the baggage) before every
 * write, and the 40th read sees 40 hops.
 * @@options: -q -c '/bin/pingpong 20'
 */
syscall::fork:entry
/execname == "pingpong"/
{
	bag->who = "parent";
	bag->n = 42;
}

proc:::lwp-start
/execname == "pingpong"/
{
	printf("lwp-start who=%s n=%d\n", bag->who, bag->n);
}

syscall::write:entry
/execname == "pingpong"/
{
	bag->hop += 1;
}

syscall::read:return
/execname == "pingpong"/
{
	@reads = count();
	@hop = max(bag->hop);
}

END
{
	printa("reads %@d, last hop %@d\n", @reads, @hop);
}
