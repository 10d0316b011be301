/*
 * ASSERTION: every fbt probe can be enabled at once while workloads run
 * (churn allocates, pingpong switches threads through a queue), the system
 * keeps working for five seconds, and everything fires: dtrace exits 0 only
 * if so.  (The workloads print their thread ids, which vary, so there is no
 * golden output; the kernel self-test fbt_enable_all_text_restored checks the
 * text is byte-identical after.)
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
	exit(n > 10000 && k > 0 && s > 0 && q > 0 ? 0 : 1);
}
