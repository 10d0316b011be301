/*
 * ASSERTION: baggage follows a request across threads.  A thread's baggage
 * is copied into the threads it creates (the producer's bag->origin is the
 * consumer's from its start), and each message put in the work queue
 * carries the producer's baggage to the consumer that takes it: last()
 * is the message's own sequence number, and reading bag->seq with all
 * values runs the clause once per value packed along the path (1, 2, 3 for
 * the third message), Pivot Tracing's "all values" semantics.  A key never
 * packed reads as 0 or "".
 * @@options: -q -c 'pingpong 5'
 */
fbt::wl_pingpong_main:entry
{
	bag->origin = "producer";
}

fbt::pp_consume:entry
{
	printf("consumer %s starts with origin=%s, nothing=%s\n", execname, bag->origin,
	    bag->nothing);
}

fbt::pp_send:entry
{
	bag->seq = arg1;
}

fbt::pp_receive:return
/(arg1 & 0xff) == 1/
{
	@last[last(bag->seq)] = count();
	@first[first(bag->seq)] = count();
}

fbt::pp_receive:return
/(arg1 & 0xff) == 1 && last(bag->seq) == 3/
{
	@all[bag->seq] = count();
}

END
{
	printa("last %d: %@d\n", @last);
	printa("first %d: %@d\n", @first);
	printa("all %d: %@d\n", @all);
}
