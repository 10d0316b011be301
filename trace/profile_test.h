/*
 * profile_test.h - what the profile provider (trace/prov_profile.c) offers
 * its tests: the parser of probe names such as "profile-997" and "tick-10ms".
 * Any context (it only reads the string).
 *
 * Tests: tests/kernel/prov_profile_selftest.c.
 */
#ifndef SONDE_PROFILE_TEST_H
#define SONDE_PROFILE_TEST_H

#include <stdint.h>

/* profile_period: the period in ns that name states, or 0 if it states none. */
uint64_t profile_period(const char *name);

#endif
