/*
 * wl_queue.c - the bounded queue used by pingpong (interface in wl_queue.h).
 *
 * Theory.  The classic monitor: one lock, two conditions.  A producer takes
 * the lock, sleeps on q_notfull while the ring is full (waitq_sleep_timeout
 * drops and retakes the lock), stores, and wakes one consumer; a consumer
 * mirrors it.  Every sleeper re-checks its condition after waking, so
 * spurious and timed-out wake-ups are harmless.  The timeout is what lets a
 * killed thread give up instead of sleeping forever.
 *
 * Tests: self-tests wl_queue_fifo_and_close, wl_queue_two_threads
 */
#include "console/workloads/wl_queue.h"
#include "kernel/baggage_site.h"
#include "kernel/klib.h"
#include "kernel/sdt.h"
#include "kernel/thread.h"

void wl_queue_init(struct wl_queue *q)
{
	memset(q, 0, sizeof(*q));
	spin_init(&q->q_lock, "wl_queue");
}

/* wl_queue_wait: sleep on wq (lock held); false if the caller was killed. */
static bool wl_queue_wait(struct wl_queue *q, waitq_t *wq, uint64_t *waits)
{
	if (thread_should_exit())
		return false;
	(*waits)++;
	waitq_sleep_timeout(wq, &q->q_lock, WL_QUEUE_POLL_NS);
	return true;
}

bool wl_queue_put(struct wl_queue *q, uint64_t v)
{
	bool ok = true;

	spin_lock(&q->q_lock);
	while (ok && !q->q_closed && q->q_count == WL_QUEUE_CAP)
		ok = wl_queue_wait(q, &q->q_notfull, &q->q_full_waits);
	ok = ok && !q->q_closed;
	if (ok) {
		q->q_slots[(q->q_head + q->q_count) % WL_QUEUE_CAP] = v;
		BAGGAGE_SAVE(&q->q_bag[(q->q_head + q->q_count) % WL_QUEUE_CAP]);
		q->q_count++;
		DTRACE_PROBE2(queue__put, q, v);
		waitq_wake_one(&q->q_notempty);
	}
	spin_unlock(&q->q_lock);
	return ok;
}

bool wl_queue_get(struct wl_queue *q, uint64_t *v)
{
	bool ok = true;

	spin_lock(&q->q_lock);
	while (ok && !q->q_closed && q->q_count == 0)
		ok = wl_queue_wait(q, &q->q_notempty, &q->q_empty_waits);
	ok = ok && q->q_count > 0;
	if (ok) {
		*v = q->q_slots[q->q_head];
		BAGGAGE_TAKE(&q->q_bag[q->q_head]);      /* the consumer continues the producer's work */
		q->q_head = (q->q_head + 1) % WL_QUEUE_CAP;
		q->q_count--;
		DTRACE_PROBE2(queue__get, q, *v);
		waitq_wake_one(&q->q_notfull);
	}
	spin_unlock(&q->q_lock);
	return ok;
}

void wl_queue_close(struct wl_queue *q)
{
	spin_lock(&q->q_lock);
	q->q_closed = true;
	waitq_wake_all(&q->q_notfull);
	waitq_wake_all(&q->q_notempty);
	spin_unlock(&q->q_lock);
}
