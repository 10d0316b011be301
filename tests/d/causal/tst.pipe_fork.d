/*
 * ASSERTION: baggage crosses fork and pipes.  The child of fork starts with
 * a copy of its parent's baggage (its lwp-start sees who and n; the
 * parent's own lwp-start, before the fork, sees none), and each pipe write
 * keeps the writer's baggage for the read that consumes it: pingpong's two
 * processes add one to bag->hop (a sum kept in the baggage) before every
 * write, and the 40th read sees 40 hops.  A read adopts the baggage of the
 * bytes it consumed: what the child packed before its first read is gone
 * after it (a wake-up alone would have joined the two).
 * @@options: -q -c '/bin/pingpong 20'
 */
int seen;

syscall::fork:entry
/execname == "pingpong"/
{
	bag->who = "parent";
	bag->n = 42;
}

proc:::lwp-start
/execname == "pingpong"/
{
	@start[bag->who, bag->n] = count();
}

syscall::write:entry
/execname == "pingpong"/
{
	bag->hop += 1;
}

syscall::read:entry
/execname == "pingpong" && pid != $target && !seen/
{
	bag->side = "child";
}

syscall::read:return
/execname == "pingpong" && pid != $target && !seen/
{
	seen = 1;
	@firstread[first(bag->side), last(bag->hop)] = count();
}

syscall::read:return
/execname == "pingpong"/
{
	@reads = count();
	@hop = max(bag->hop);
}

END
{
	printa("lwp-start who=%s n=%d: %@d\n", @start);
	printa("the child's first read: side=%s hop=%d: %@d\n", @firstread);
	printa("reads %@d, last hop %@d\n", @reads, @hop);
}
