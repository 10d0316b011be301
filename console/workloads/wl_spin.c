/*
 * wl_spin.c - `run spin [MS]`: keep the CPU busy through a short call chain.
 *
 * Theory.  The thread repeats rounds until its deadline (MS milliseconds
 * after it starts) or until it is killed.  A round is
 *   wl_spin_main -> spin_round -> spin_block -> spin_mix
 * so a profile of a spinning system shows a stack four deep.  spin_mix is a
 * cheap integer hash (no floating point in the kernel); its result goes to a
 * volatile sink so the compiler cannot drop the work.  The round is short
 * (about a few microseconds) so a kill is noticed quickly.
 *
 * Tests: self-tests wl_workloads_end_by_themselves; tests/d/profile
 */
#include "console/workloads/workload.h"
#include "kernel/time.h"

#define SPIN_BLOCKS_PER_ROUND 16
#define SPIN_MIXES_PER_BLOCK  64

static volatile uint64_t spin_sink;

/* spin_mix: one step of an integer hash (xorshift-multiply). */
static WL_NOINLINE uint64_t spin_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static WL_NOINLINE uint64_t spin_block(uint64_t seed)
{
	for (int i = 0; i < SPIN_MIXES_PER_BLOCK; i++)
		seed = spin_mix(seed + (uint64_t)i);
	return seed;
}

static WL_NOINLINE void spin_round(uint64_t *state)
{
	for (int i = 0; i < SPIN_BLOCKS_PER_ROUND; i++)
		*state = spin_block(*state);
	spin_sink = *state;
}

static int wl_spin_main(const struct wl_params *p)
{
	uint64_t deadline = p->wp_given ? ktime_ns() + p->wp_arg * NSEC_PER_MSEC : 0;
	uint64_t state = 0x5eed;

	if (p->wp_given && p->wp_arg == 0)
		return 0;
	while (!wl_should_stop(deadline))
		spin_round(&state);
	return 0;
}
WORKLOAD(spin, wl_spin_main, "spin [MS]", "spin the CPU for MS milliseconds");
