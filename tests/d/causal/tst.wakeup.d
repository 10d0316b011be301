/*
 * ASSERTION: a wake-up carries the waker's baggage to the wakee.  The
 * consumer packs bag->ack; the producer never reads a message from it, but
 * it sleeps while the queue (8 slots) is full and the consumer's get wakes
 * it, so its next send carries the consumer's ack.
 * @@options: -q -c 'pingpong 40'
 */
fbt::pp_consume:entry
{
	bag->ack = 7;
}

fbt::pp_send:entry
/!done && first(bag->ack) == 7/
{
	done = 1;
	printf("the producer carries the consumer's ack=%d\n", first(bag->ack));
}
