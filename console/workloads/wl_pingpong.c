/*
 * wl_pingpong.c - `run pingpong [COUNT]`: a producer and a consumer thread.
 *
 * Theory.  The thread `run` starts is the producer ("pingpong"); it creates
 * the consumer ("pingpong-rx") and sends it COUNT numbered messages (or
 * sends until killed) through a bounded queue (wl_queue.c), so the two
 * threads take turns sleeping on "full" and "empty".  The consumer checks
 * that messages arrive in order and adds them up; both keep statistics under
 * a mutex.  At the end the producer closes the queue, joins the consumer and
 * checks the totals: status 0 if every message arrived once, in order.
 *
 * Ending: the producer stops after COUNT messages or when killed; the
 * consumer stops when the queue is closed and drained or when killed, and
 * closes the queue itself so that the producer stops too.  The producer
 * owns the shared state and frees it only after joining the consumer.
 *
 * Call chains: wl_pingpong_main -> pp_produce -> pp_send -> wl_queue_put,
 * and pp_consumer_main -> pp_consume -> pp_receive -> wl_queue_get.
 *
 * Tests: self-tests wl_workloads_end_by_themselves;
 *        tests/e2e/test_workloads.py
 */
#include "console/workloads/workload.h"
#include "console/workloads/wl_queue.h"
#include "kernel/klib.h"
#include "kernel/console.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/thread.h"

struct pingpong {
	struct wl_queue pp_queue;
	mutex_t pp_stats_lock;
	uint64_t pp_sent;            /* under pp_stats_lock */
	uint64_t pp_received;
	uint64_t pp_sum;             /* of received message numbers */
	uint64_t pp_out_of_order;
	bool pp_rx_killed;           /* the consumer was killed (set before it exits) */
};

static WL_NOINLINE bool pp_send(struct pingpong *pp, uint64_t seq)
{
	if (!wl_queue_put(&pp->pp_queue, seq))
		return false;
	mutex_lock(&pp->pp_stats_lock);
	pp->pp_sent++;
	mutex_unlock(&pp->pp_stats_lock);
	return true;
}

/* pp_produce: send 1, 2, ... up to p's count (or until stopped); returns how many went. */
static WL_NOINLINE uint64_t pp_produce(struct pingpong *pp, const struct wl_params *p)
{
	uint64_t seq = 0;

	while ((!p->wp_given || seq < p->wp_arg) && !thread_should_exit() && pp_send(pp, seq + 1))
		seq++;
	return seq;
}

static WL_NOINLINE bool pp_receive(struct pingpong *pp, uint64_t expect)
{
	uint64_t v;

	if (!wl_queue_get(&pp->pp_queue, &v))
		return false;
	mutex_lock(&pp->pp_stats_lock);
	pp->pp_received++;
	pp->pp_sum += v;
	if (v != expect)
		pp->pp_out_of_order++;
	mutex_unlock(&pp->pp_stats_lock);
	return true;
}

static WL_NOINLINE void pp_consume(struct pingpong *pp)
{
	uint64_t expect = 1;

	while (!thread_should_exit() && pp_receive(pp, expect))
		expect++;
}

static void pp_consumer_main(void *arg)
{
	struct pingpong *pp = arg;

	pp_consume(pp);
	pp->pp_rx_killed = thread_should_exit();
	wl_queue_close(&pp->pp_queue);       /* if we were killed, stop the producer too */
	thread_exit(0);
}

/* pp_verify: did every sent message arrive once and in order? */
static bool pp_verify(struct pingpong *pp, uint64_t sent)
{
	bool ok = pp->pp_received == sent && pp->pp_out_of_order == 0 &&
	          pp->pp_sum == sent * (sent + 1) / 2;
	if (!ok)
		kprintf_err("pingpong: sent %lu, received %lu, %lu out of order\n",
		            sent, pp->pp_received, pp->pp_out_of_order);
	return ok;
}

static int wl_pingpong_main(const struct wl_params *p)
{
	struct pingpong *pp = kzalloc(sizeof(*pp));

	if (pp == NULL)
		return 1;
	wl_queue_init(&pp->pp_queue);
	mutex_init(&pp->pp_stats_lock, "pingpong");
	uint64_t rx_tid = thread_spawn("pingpong-rx", pp_consumer_main, pp);
	if (rx_tid == 0) {
		kfree(pp);
		return 1;
	}
	uint64_t sent = pp_produce(pp, p);
	wl_queue_close(&pp->pp_queue);
	thread_join(rx_tid);
	/* A killed thread may leave messages behind: only an undisturbed run is checked. */
	bool ok = pp->pp_rx_killed || thread_should_exit() || pp_verify(pp, sent);
	kfree(pp);
	return ok ? 0 : 1;
}
WORKLOAD(pingpong, wl_pingpong_main, "pingpong [COUNT]",
         "send COUNT messages between two threads through a bounded queue");
