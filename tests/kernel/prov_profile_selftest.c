/*
 * prov_profile_selftest.c - in-kernel self-tests of the profile provider:
 * rate names with every unit, tick-N firing N times a second, arg0 the
 * interrupted kernel PC, and a refusal for rates the cyclic facility cannot
 * deliver.
 */
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "tests/kernel/prov_selftest.h"
#include "trace/profile_test.h"

SELFTEST(profile_rate_names)
{
	ST_ASSERT(profile_period("profile-997") == NSEC_PER_SEC / 997);
	ST_ASSERT(profile_period("profile-97hz") == NSEC_PER_SEC / 97);
	ST_ASSERT(profile_period("tick-1s") == NSEC_PER_SEC);
	ST_ASSERT(profile_period("tick-1sec") == NSEC_PER_SEC);
	ST_ASSERT(profile_period("tick-10ms") == 10 * NSEC_PER_MSEC);
	ST_ASSERT(profile_period("tick-250us") == 250 * NSEC_PER_USEC);
	ST_ASSERT(profile_period("tick-20000nsec") == 20000);
	ST_ASSERT(profile_period("tick-2m") == 120 * NSEC_PER_SEC);
	ST_ASSERT(profile_period("tick-1") == NSEC_PER_SEC);
	ST_ASSERT(profile_period("tick-") == 0);
	ST_ASSERT(profile_period("tick-10parsecs") == 0);
	ST_ASSERT(profile_period("tick-0") == 0);
	ST_ASSERT(profile_period("profile") == 0);
	ST_ASSERT(profile_period("BEGIN") == 0);
}

static void sleep_ms(void *arg)
{
	thread_sleep_ns((uint64_t)arg * NSEC_PER_MSEC);
}

static volatile uint64_t spin_sink;

static void spin_ms(void *arg)
{
	uint64_t end = ktime_ns() + (uint64_t)arg * NSEC_PER_MSEC;

	while (ktime_ns() < end) {
		for (int i = 0; i < 10000; i++)
			spin_sink++;
	}
}

SELFTEST(profile_tick_rate)
{
	/* 100 Hz for 300 ms: 30 firings; a loaded host starves the vCPU of some (missed periods are skipped). */
	int64_t n = prov_st_count("tick-100hz { @ = count(); }", sleep_ms, (void *)300);

	ST_ASSERT(n >= 15 && n <= 31);
	n = prov_st_count("profile:::tick-10ms { @ = count(); }", sleep_ms, (void *)300);
	ST_ASSERT(n >= 15 && n <= 31);
}

SELFTEST(profile_kernel_pc)
{
	struct ksym ks;
	char src[200];

	/* Kernel samples only; while spinning, most land in spin_ms itself. */
	ST_ASSERT(prov_st_count("profile-997 /arg0 == 0 || arg1 != 0/ { @ = count(); }",
	                        spin_ms, (void *)100) == 0);
	ST_ASSERT(ksym_lookup_name("spin_ms", &ks));
	/* +1 for a sample in spin_ms, -1 elsewhere: most are in spin_ms. */
	/* Only this test's thread: other CPUs' samples land in their idle loops. */
	ksnprintf(src, sizeof(src), "profile-997 /execname == \"profile_kernel_pc\"/ "
	          "{ @ = sum(arg0 >= %lu && arg0 < %lu ? 1 : -1); }",
	          ks.ks_addr, ks.ks_addr + ks.ks_size);
	ST_ASSERT(prov_st_count(src, spin_ms, (void *)100) > 0);
}

SELFTEST(profile_rate_too_high)
{
	/* DTrace's limit, 200 us (5000 Hz): no probe is made faster, so nothing fires. */
	ST_ASSERT(prov_st_count("profile-200000 { @ = count(); }", sleep_ms, (void *)1) == 0);
	ST_ASSERT(prov_st_count("tick-5us { @ = count(); }", sleep_ms, (void *)1) == 0);
	ST_ASSERT(prov_st_count("tick-199us { @ = count(); }", sleep_ms, (void *)5) == 0);
	ST_ASSERT(prov_st_count("tick-200us { @ = count(); }", sleep_ms, (void *)5) > 0);  /* accepted */
}
