/*
 * wl_bagbench.c - `run bagbench`: what causal baggage costs, in guest
 * instructions (tools/bench_causal.py runs it under -icount, where one TSC
 * tick is one instruction; docs/causal.md has the figures).
 *
 * Theory.  Each figure is the fastest of BB_ROUNDS rounds of BB_N
 * operations, less the same loop without the operation, divided by BB_N:
 *
 *   site           one hand-off site (BAGGAGE_TAKE) as the kernel runs it:
 *                  off while no program uses bag->, on when one does
 *   wake_absent    a wake-up's hand-off with the sites on, waker without baggage
 *   wake_present   the same with a typical baggage (client, request id,
 *                  a sum: 42 bytes) that the wakee already holds
 *   pipe_present   one pipe write's and one read's hand-off with that baggage
 *   queue_present  one work-queue put's and one get's hand-off
 *   probe          one firing of sdt:::bagbench-op, whatever dtrace -c
 *                  enabled there: an empty clause, bag->k = arg0 (a pack),
 *                  this->c = first(bag->client) (an unpack); the thread's
 *                  baggage is reset to the typical one before each firing,
 *                  in the baseline loop too
 *
 * It never turns the sites on itself: run it under a D program that uses
 * bag-> for the "on" figures (bench_causal.py does).
 *
 * Tests: make causal-bench (tools/bench_causal.py)
 */
#include "console/workloads/workload.h"
#include "kernel/baggage.h"
#include "kernel/baggage_site.h"
#include "kernel/console.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/sdt.h"
#include "kernel/thread.h"

#define BB_N      1000
#define BB_ROUNDS 5

static struct baggage bb_slot;
static struct bag_segs bb_segs;
static struct baggage bb_typical;            /* client=pingpong req=7 bytes+=100 */

static WL_NOINLINE void bb_nothing(int i)
{
	__asm__ volatile("" :: "r"(i));
}

/* bb_framed: bb_site without its site (the same frame: the difference is the site alone). */
static WL_NOINLINE void bb_framed(int i)
{
	(void)i;
	__asm__ volatile("" :: "r"(__builtin_frame_address(0)));
}

static WL_NOINLINE void bb_site(int i)
{
	(void)i;
	BAGGAGE_TAKE(&bb_slot);
}

static WL_NOINLINE void bb_wake(int i)
{
	static struct thread *wakee;

	(void)i;
	if (wakee == NULL && (wakee = kzalloc(sizeof(*wakee))) == NULL)
		return;
	memcpy(&wakee->t_bag, &curthread()->t_bag, sizeof(wakee->t_bag));
	BAGGAGE_WAKE(wakee);
}

static WL_NOINLINE void bb_wake_base(int i)
{
	static struct thread *wakee;

	(void)i;
	if (wakee == NULL && (wakee = kzalloc(sizeof(*wakee))) == NULL)
		return;
	memcpy(&wakee->t_bag, &curthread()->t_bag, sizeof(wakee->t_bag));
}

static WL_NOINLINE void bb_pipe(int i)
{
	(void)i;
	BAGGAGE_PIPE_WRITE(&bb_segs, 1);
	BAGGAGE_PIPE_READ(&bb_segs, 1);
}

static WL_NOINLINE void bb_queue(int i)
{
	(void)i;
	BAGGAGE_SAVE(&bb_slot);
	BAGGAGE_TAKE(&bb_slot);
}

static WL_NOINLINE void bb_fire(int i)
{
	memcpy(&curthread()->t_bag, &bb_typical, sizeof(bb_typical));
	DTRACE_PROBE1(bagbench__op, i);
}

static WL_NOINLINE void bb_fire_base(int i)
{
	memcpy(&curthread()->t_bag, &bb_typical, sizeof(bb_typical));
	bb_nothing(i);
}

/* bb_time: the fastest round of BB_N calls of fn, in TSC ticks. */
static uint64_t bb_time(void (*fn)(int))
{
	uint64_t best = UINT64_MAX;

	for (int r = 0; r < BB_ROUNDS; r++) {
		uint64_t t0 = arch_cycles();
		for (int i = 0; i < BB_N; i++)
			fn(i);
		uint64_t t = arch_cycles() - t0;
		best = MIN(best, t);
	}
	return best;
}

static void bb_report(const char *name, void (*fn)(int), void (*base)(int))
{
	uint64_t t = bb_time(fn), b = bb_time(base);

	kprintf("bagbench: %s %lu ns per op\n", name, (unsigned long)(t > b ? (t - b) / BB_N : 0));
}

static void bb_with(const struct baggage *b)
{
	memcpy(&curthread()->t_bag, b, sizeof(*b));
}

static int wl_bagbench_main(const struct wl_params *p)
{
	static const struct baggage empty;

	(void)p;
	bag_clear(&bb_typical);
	bag_pack_str(&bb_typical, "client", 6, "pingpong", 8);
	bag_pack_int(&bb_typical, "req", 3, 7);
	bag_add_sum(&bb_typical, "bytes", 5, 100);
	kprintf("bagbench: sites %s, typical baggage %lu bytes\n", baggage_sites_on ? "on" : "off",
	        (unsigned long)bag_len(&bb_typical));
	bb_with(&bb_typical);
	bb_report("site", bb_site, bb_framed);
	bb_with(&empty);
	bb_report("wake_absent", bb_wake, bb_wake_base);
	bb_with(&bb_typical);
	bb_report("wake_present", bb_wake, bb_wake_base);
	bb_report("pipe_present", bb_pipe, bb_framed);
	bb_report("queue_present", bb_queue, bb_framed);
	bb_report("probe", bb_fire, bb_fire_base);
	bag_clear(&curthread()->t_bag);
	return 0;
}

WORKLOAD(bagbench, wl_bagbench_main, "bagbench", "time causal baggage's operations (docs/causal.md)");
