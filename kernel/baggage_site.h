/*
 * baggage_site.h - the kernel's baggage hand-off sites, each one no-op
 * instruction while no enabled D program uses `bag->`.
 *
 *   BAGGAGE_WAKE(t);          in the wake-up path: t is the wakee
 *   BAGGAGE_FORK(t);          a new thread (thread creation, fork)
 *   BAGGAGE_SAVE(&slot->bag); work put in a queue slot: the slot keeps a copy
 *   BAGGAGE_TAKE(&slot->bag); that work taken: the taker adopts the slot's
 *   BAGGAGE_PIPE_WRITE(&pp->segs, queued);  a pipe write: its bytes (up to
 *                             queued bytes ahead of the reader) keep the
 *                             writer's baggage
 *   BAGGAGE_PIPE_READ(&pp->segs, got);      a read of got bytes adopts the
 *                             baggage of the segments it consumed
 *
 * A site is a branch the framework turns on and off (baggage_sites_set,
 * called when the first program using `bag->` is enabled and after the last
 * is torn down).  Where the machine has ARCH_BRANCH_SITE (x86_64: a 5-byte
 * `cmp $imm32,%eax` whose opcode byte becomes `jmp rel32`, one byte
 * written, so every CPU always runs a whole instruction), the site costs
 * that one instruction when off; each is recorded in the "baggage_sites"
 * section (collected by linker.ld).  Elsewhere (sparc64) it is a load and a
 * branch on baggage_sites_on.
 *
 * The *_slow functions (kernel/baggage.c) do the work; they may run with
 * the scheduler's lock held and interrupts off, never sleep, never allocate.
 */
#ifndef SONDE_BAGGAGE_SITE_H
#define SONDE_BAGGAGE_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/baggage.h"

#include "arch/arch.h"

struct thread;
struct baggage;

/*
 * A pipe's baggage: up to BAG_SEGS segments, each a range of the bytes
 * ahead of the reader [bs_start, bs_end) with the baggage of the write that
 * put them there.  A write whose baggage equals the last segment's extends
 * it; when all are taken the last one absorbs the write (joined: coarser,
 * never lost).  bs_gen ties a segment to one period of the sites being on:
 * positions kept while they were off would be stale.
 */
#define BAG_SEGS 4
struct bag_seg {
	uint32_t bs_start, bs_end;
	uint32_t bs_gen;
	struct baggage bs_bag;
};
struct bag_segs {
	int bq_n;
	struct bag_seg bq_seg[BAG_SEGS];
};

void baggage_wake_slow(struct thread *wakee);
void baggage_fork_slow(struct thread *child);
void baggage_save_slow(struct baggage *into);
void baggage_take_slow(const struct baggage *from);
void baggage_pipe_write_slow(struct bag_segs *q, size_t queued);
void baggage_pipe_read_slow(struct bag_segs *q, size_t got);

/* baggage_join/adopt: dst joined with src / replaced by src; interrupts off inside.  Any context. */
void baggage_join(struct baggage *dst, const struct baggage *src);
void baggage_adopt(struct baggage *dst, const struct baggage *src);
void baggage_drop_count(void);
extern volatile uint64_t baggage_drops;

/*
 * baggage_sites_set: turn every hand-off site on or off.  Thread context,
 * under the framework lock (trace/enable.c); returns the number of sites.
 */
int baggage_sites_set(bool on);

extern volatile bool baggage_sites_on;

/* One site record: the address of the site's instruction. */
struct baggage_site {
	uint64_t bs_addr;
};

/* The sites the linker collected (the "baggage_sites" section; baggage.c, its self-test). */
extern const struct baggage_site __start_baggage_sites[], __stop_baggage_sites[];

#ifdef ARCH_BRANCH_SITE
static inline __attribute__((always_inline)) bool baggage_site_taken(void)
{
	__asm__ goto("990: " ARCH_BRANCH_SITE("%l[on]") "\n\t"
	             ".pushsection baggage_sites, \"a\", @progbits\n\t"
	             ".balign 8\n\t"
	             ".quad 990b\n\t"
	             ".popsection" ::: "cc" : on);
	return false;
on:
	return true;
}
#else
static inline __attribute__((always_inline)) bool baggage_site_taken(void)
{
	return __builtin_expect(baggage_sites_on, 0);
}
#endif

#define BAGGAGE_WAKE(t)    do { if (baggage_site_taken()) baggage_wake_slow(t); } while (0)
#define BAGGAGE_FORK(t)    do { if (baggage_site_taken()) baggage_fork_slow(t); } while (0)
#define BAGGAGE_SAVE(b)    do { if (baggage_site_taken()) baggage_save_slow(b); } while (0)
#define BAGGAGE_TAKE(b)    do { if (baggage_site_taken()) baggage_take_slow(b); } while (0)
#define BAGGAGE_PIPE_WRITE(q, n) do { if (baggage_site_taken()) baggage_pipe_write_slow(q, n); } while (0)
#define BAGGAGE_PIPE_READ(q, n)  do { if (baggage_site_taken()) baggage_pipe_read_slow(q, n); } while (0)

#endif
