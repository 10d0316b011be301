/*
 * ASSERTION: the scheduler's probes fire around a sleep: the sleeping thread
 * goes off-cpu, sleeps, is woken, and something comes on-cpu.
 */
/* @@options: -q -c 'sleep 1' */
int off, on, sl, wk, enq, deq;

sdt:::off-cpu { off++; }
sdt:::on-cpu { on++; }
sdt:::sleep { sl++; }
sdt:::wakeup { wk++; }
sdt:::enqueue { enq++; }
sdt:::dequeue { deq++; }

END
{
	printf("off-cpu %s\n", off > 0 ? "yes" : "no");
	printf("on-cpu %s\n", on > 0 ? "yes" : "no");
	printf("sleep %s\n", sl > 0 ? "yes" : "no");
	printf("wakeup %s\n", wk > 0 ? "yes" : "no");
	printf("enqueue %s\n", enq > 0 ? "yes" : "no");
	printf("dequeue %s\n", deq > 0 ? "yes" : "no");
}
