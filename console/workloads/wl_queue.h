/*
 * wl_queue.h - a bounded queue of 64-bit messages between threads.
 *
 * A ring of WL_QUEUE_CAP slots guarded by a spinlock, with one wait queue
 * for "not full" (producers sleep there) and one for "not empty"
 * (consumers).  Closing the queue wakes everyone: puts fail from then on,
 * gets drain what is left and then fail.  Sleepers wake up at least every
 * WL_QUEUE_POLL_NS to notice that their thread was killed, so a killed
 * producer or consumer never stays blocked.  Thread context only.
 */
#ifndef SONDE_WL_QUEUE_H
#define SONDE_WL_QUEUE_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/baggage.h"
#include "kernel/lock.h"

#define WL_QUEUE_CAP      8
#define WL_QUEUE_POLL_NS  (50 * 1000 * 1000ULL)

struct wl_queue {
	spinlock_t q_lock;
	waitq_t q_notfull;
	waitq_t q_notempty;
	uint64_t q_slots[WL_QUEUE_CAP];
	struct baggage q_bag[WL_QUEUE_CAP];  /* each message's causal baggage (BAGGAGE_SAVE/TAKE) */
	unsigned q_head;             /* index of the oldest message */
	unsigned q_count;
	bool q_closed;
	uint64_t q_full_waits;       /* times a producer had to sleep */
	uint64_t q_empty_waits;      /* times a consumer had to sleep */
};

void wl_queue_init(struct wl_queue *q);

/* wl_queue_put: append v, sleeping while full.  False if closed or the caller was killed. */
bool wl_queue_put(struct wl_queue *q, uint64_t v);

/* wl_queue_get: take the oldest message, sleeping while empty.  False if closed and empty, or killed. */
bool wl_queue_get(struct wl_queue *q, uint64_t *v);

/* wl_queue_close: no more puts; wake every sleeper. */
void wl_queue_close(struct wl_queue *q);

#endif
