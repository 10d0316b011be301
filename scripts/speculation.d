/*
 * speculation.d - speculative tracing: follow every message receive of the
 * pingpong workload through the queue, the sleeps and the wake-ups, but
 * print the trace only for a receive that fails.
 *
 *   sonde# dtrace -s /scripts/speculation.d -c 'run pingpong 1000; sleep 10'
 *
 * (`run` returns as soon as the workload has started, hence the sleep; the
 * script exits by itself when the consumer thread is done.)
 *
 * Each call of pp_receive() gets its own speculation: everything its thread
 * does on the way (wl_queue_get, sleeping on an empty queue, being woken) is
 * recorded into it, with the time since the call began.  When pp_receive()
 * returns true the message arrived and the speculation is discarded; when it
 * returns false (the queue was closed: the end of the run, or a producer
 * that was killed) the whole path is committed and printed.  A thousand
 * successful receives cost nothing on the output; the one that failed is
 * shown from its first step, which no predicate could have known to select
 * when that step happened.  The counts at the end say how much was thrown
 * away.
 */
#pragma D option quiet
#pragma D option nspec=4

fbt::pp_receive:entry
{
	self->spec = speculation();
	self->start = timestamp;
	self->expect = arg1;
}

fbt::pp_receive:entry
/self->spec == 0/
{
	@["receives not traced (no free speculation)"] = count();
}

fbt::pp_receive:entry
/self->spec != 0/
{
	speculate(self->spec);
	printf("pp_receive(expect %d) on cpu %d\n", self->expect, cpu);
}

fbt::wl_queue_get:entry,
fbt::wl_queue_get:return,
fbt::waitq_sleep_timeout:entry,
fbt::waitq_sleep_timeout:return,
sdt:::sleep,
sdt:::wakeup
/self->spec != 0/
{
	speculate(self->spec);
	printf("  %8d ns  %s:%s\n", timestamp - self->start, probefunc, probename);
}

fbt::pp_receive:return
/self->spec != 0/
{
	self->failed = (arg1 & 0xff) == 0;
}

fbt::pp_receive:return
/self->spec != 0 && self->failed/
{
	speculate(self->spec);
	printf("  %8d ns  pp_receive returned false: this path is kept\n\n",
	    timestamp - self->start);
}

fbt::pp_receive:return
/self->spec != 0/
{
	@[self->failed ? "receives failed (traced paths kept)" :
	    "receives that succeeded (traced paths discarded)"] = count();
}

fbt::pp_receive:return
/self->spec != 0 && self->failed/
{
	commit(self->spec);
}

fbt::pp_receive:return
/self->spec != 0 && !self->failed/
{
	discard(self->spec);
}

fbt::pp_receive:return
{
	self->spec = 0;
	self->failed = 0;
	self->start = 0;
	self->expect = 0;
}

/* The consumer has stopped receiving: print the counts and stop. */
fbt::pp_consume:return
{
	exit(0);
}
