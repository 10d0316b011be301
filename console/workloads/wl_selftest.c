/*
 * wl_selftest.c - in-kernel self-tests of the workloads and the bounded queue.
 *
 * The queue is checked alone (order, capacity, close) and across two
 * threads; every workload is run with a small count and must end by itself
 * with status 0 (thread_join returns it).
 *
 * Tests: make selftest-check (it is self-tests wl_*)
 */
#include "console/workloads/workload.h"
#include "console/workloads/wl_queue.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"

#define WL_ST_MESSAGES 2000

SELFTEST(wl_queue_fifo_and_close)
{
	struct wl_queue *q = kmalloc(sizeof(*q));
	uint64_t v = 0;

	ST_ASSERT(q != NULL);
	if (q == NULL)
		return;
	wl_queue_init(q);
	for (uint64_t i = 0; i < WL_QUEUE_CAP; i++)
		ST_ASSERT(wl_queue_put(q, i + 100));
	ST_ASSERT(q->q_count == WL_QUEUE_CAP);
	ST_ASSERT(wl_queue_get(q, &v) && v == 100);
	ST_ASSERT(wl_queue_put(q, 200));             /* wraps around the ring */
	wl_queue_close(q);
	ST_ASSERT(!wl_queue_put(q, 300));
	for (uint64_t i = 1; i < WL_QUEUE_CAP; i++)
		ST_ASSERT(wl_queue_get(q, &v) && v == i + 100);
	ST_ASSERT(wl_queue_get(q, &v) && v == 200);
	ST_ASSERT(!wl_queue_get(q, &v));             /* closed and drained */
	kfree(q);
}

static void wl_st_producer(void *arg)
{
	struct wl_queue *q = arg;

	for (uint64_t i = 1; i <= WL_ST_MESSAGES; i++)
		if (!wl_queue_put(q, i))
			thread_exit(1);
	wl_queue_close(q);
	thread_exit(0);
}

SELFTEST(wl_queue_two_threads)
{
	struct wl_queue *q = kmalloc(sizeof(*q));
	uint64_t v, expect = 1;

	ST_ASSERT(q != NULL);
	if (q == NULL)
		return;
	wl_queue_init(q);
	uint64_t tid = thread_spawn("wl_st_producer", wl_st_producer, q);
	ST_ASSERT(tid != 0);
	if (tid == 0)
		return;
	while (wl_queue_get(q, &v) && v == expect)
		expect++;
	ST_ASSERT(expect == WL_ST_MESSAGES + 1);
	ST_ASSERT(thread_join(tid) <= 0);           /* 0, or -1 if already reaped */
	kfree(q);
}

SELFTEST(wl_registry)
{
	ST_ASSERT(wl_find("spin") != NULL);
	ST_ASSERT(wl_find("churn") != NULL);
	ST_ASSERT(wl_find("pingpong") != NULL);
	ST_ASSERT(wl_find("nosuch") == NULL);
	ST_ASSERT(wl_count() >= 3);
}

/* wl_st_run: run workload name with count n to its end; returns its exit status. */
static int wl_st_run(const char *name, uint64_t n)
{
	struct wl_params p = { .wp_arg = n, .wp_given = true };
	const struct workload *w = wl_find(name);

	if (w == NULL)
		return -2;
	uint64_t tid = wl_spawn(w, &p);
	return tid == 0 ? -3 : thread_join(tid);
}

SELFTEST(wl_workloads_end_by_themselves)
{
	ST_ASSERT(wl_st_run("spin", 20) == 0);
	ST_ASSERT(wl_st_run("churn", 50) == 0);
	ST_ASSERT(wl_st_run("pingpong", 500) == 0);
	ST_ASSERT(wl_st_run("spin", 0) <= 0);
}

SELFTEST(wl_heap_balanced_after_churn)
{
	struct kheap_stats before, after;

	kheap_stats(&before);
	ST_ASSERT(wl_st_run("churn", 20) == 0);
	kheap_stats(&after);
	ST_ASSERT(after.hs_allocs - before.hs_allocs >= 20 * 24);
	ST_ASSERT(after.hs_failures == before.hs_failures);
}
