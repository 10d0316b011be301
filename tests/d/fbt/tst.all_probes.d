/*
 * ASSERTION: every fbt probe can be enabled at once while workloads run
 * (churn allocates, pingpong switches threads through a queue), the system
 * keeps working for five seconds, and everything fires.  (The kernel self-test
 * fbt_enable_all_text_restored checks the text is byte-identical after.)
 */
/* @@options: -q -c 'run churn; run pingpong; sleep 5' */
/* @@timeout: 120 */
int n, k, s, q;

fbt::: { n++; }
fbt::kmalloc:entry { k++; }
fbt::sched_switch:entry { s++; }
fbt::wl_queue_put:return { q++; }

END
{
	printf("many firings %s\n", n > 10000 ? "yes" : "no");
	printf("kmalloc %s, sched_switch %s, wl_queue_put %s\n", k > 0 ? "yes" : "no",
	    s > 0 ? "yes" : "no", q > 0 ? "yes" : "no");
}
