/*
 * prov_selftest.h - what the providers' self-tests share
 * (tests/kernel/prov_*_selftest.c).
 */
#ifndef SONDE_PROV_SELFTEST_H
#define SONDE_PROV_SELFTEST_H

#include <stdint.h>

/*
 * prov_st_count: compile the D program src (its clauses aggregate with
 * count() or sum() into @), enable it through the consumer interface, run
 * work(arg), stop, and return the sum of aggregation values over every key
 * and CPU; -1 if the program does not compile or enable (the reason is
 * printed as a TAP comment).  Thread context.
 */
int64_t prov_st_count(const char *src, void (*work)(void *), void *arg);

/* fbt_st_frame: a probed function with a frame and six arguments (prov_fbt_selftest.c). */
long fbt_st_frame(long a, long b, long c, long d, long e, long f);

#endif
