/*
 * time.h - kernel time and the cyclic facility.
 *
 * ktime_ns() is nanoseconds since boot, read from the TSC calibrated against
 * the PIT.  A cyclic is a handler called from the timer interrupt of one
 * CPU (the one that started it, or the one named) at a fixed
 * period (10 us or more) or once at a deadline; the LAPIC timer in one-shot
 * mode is programmed for the earliest pending expiry.  Handlers run with
 * interrupts disabled and must not sleep.
 */
#ifndef SONDE_TIME_H
#define SONDE_TIME_H

#include <stdbool.h>
#include <stdint.h>

#define NSEC_PER_USEC   1000UL
#define NSEC_PER_MSEC   1000000UL
#define NSEC_PER_SEC    1000000000UL
#define CYCLIC_MIN_PERIOD_NS (10 * NSEC_PER_USEC)

uint64_t ktime_ns(void);                          /* any context */

/*
 * time_days_from_civil: days from 1970-01-01 to y-m-d, m 1..12, in the
 * proleptic Gregorian calendar (negative before 1970): how the machines'
 * RTC readers (arch/<isa>/rtc.c) turn a date into the wall clock.  Pure.
 */
static inline int64_t time_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/*
 * Wall-clock time: walltime_init() reads the RTC once at boot; from then on
 * the wall clock is that reading advanced by ktime_ns(), so it never steps.
 * ktime_wall_ns(t): the wall-clock time, in ns since 1970-01-01 UTC, at the
 * ktime_ns() reading t.  Any context (probe context: D's walltimestamp).
 */
extern uint64_t ktime_boot_wall_ns;               /* wall-clock time at ktime_ns() == 0 */
void walltime_init(void);                         /* boot */
static inline uint64_t ktime_wall_ns(uint64_t t)
{
	return ktime_boot_wall_ns + t;
}

typedef void cyclic_fn_t(void *arg);

struct cyclic {
	uint64_t cy_expire;          /* absolute ktime_ns of next call */
	uint64_t cy_period;          /* 0 for a one-shot */
	cyclic_fn_t *cy_fn;
	void *cy_arg;
	struct cyclic *cy_next;      /* pending list, sorted by cy_expire */
	bool cy_pending;
	uint64_t cy_fired;           /* number of calls so far */
	int cy_cpu;                  /* the CPU whose timer runs it */
	volatile bool cy_running;    /* its handler is running right now */
};

/*
 * cyclic_start: call fn(arg) every period_ns (>= CYCLIC_MIN_PERIOD_NS), or
 * once after delay_ns when period_ns is 0.  The caller owns *cy.
 * Returns false if the period is too short.  Any context.
 */
bool cyclic_start(struct cyclic *cy, uint64_t period_ns, uint64_t delay_ns,
                  cyclic_fn_t *fn, void *arg);
/* cyclic_start_on: the same on CPU cpu (a cross-call if it is another CPU).  Thread context. */
bool cyclic_start_on(int cpu, struct cyclic *cy, uint64_t period_ns, uint64_t delay_ns,
                     cyclic_fn_t *fn, void *arg);
/*
 * cyclic_stop: no call starts after it returns, and a call running on
 * another CPU has finished.  Any context; idempotent.
 */
void cyclic_stop(struct cyclic *cy);

#endif
