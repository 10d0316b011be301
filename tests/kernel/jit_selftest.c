/*
 * jit_selftest.c - the DIF JIT in the kernel (trace/jit.c, the machine's
 * code area): translated predicates and aggregation keys count what the
 * interpreter would, and the code area is reused, so translation keeps
 * working however many consumers come and go.
 */
#include "kernel/klib.h"
#include "kernel/selftest.h"
#include "tests/kernel/prov_selftest.h"
#include "trace/trace_impl.h"

#define PROBED __attribute__((noipa))

PROBED long jit_st_target(long x)
{
	return x + 1;
}

static void call_0_to_99(void *arg)
{
	long (*volatile fn)(long) = jit_st_target;

	(void)arg;
	for (long i = 0; i < 100; i++)
		fn(i);
}

SELFTEST(jit_predicate_and_key)
{
	uint64_t before = dtrace_jit_st.djs_translated;

	ST_ASSERT(prov_st_count("fbt::jit_st_target:entry /arg0 % 3 == 1/ { @ = count(); }",
	                        call_0_to_99, NULL) == 33);
	ST_ASSERT(prov_st_count("fbt::jit_st_target:entry /arg0 >= 10 && !(arg0 > 19) || arg0 == 99/"
	                        " { @ = sum(arg0 * 2); }", call_0_to_99, NULL) == 2 * (145 + 99));
	ST_ASSERT(prov_st_count("fbt::jit_st_target:entry { @[arg0 / 10] = count(); }",
	                        call_0_to_99, NULL) == 100);
	/* the predicate, the sum's argument, the key: when the machine has a JIT */
	ST_ASSERT(dtrace_jit_st.djs_translated == before ||
	          dtrace_jit_st.djs_translated >= before + 4);
}

/*
 * Consumers one after the other, each with more than 64 KiB / ROUNDS of
 * native code (a predicate and a sum's argument, 80-odd bytes each): more
 * than the 64 KiB area holds at once, unless it is reused.
 */
#define ROUNDS 300

SELFTEST(jit_area_reused)
{
	uint64_t translated = dtrace_jit_st.djs_translated, bytes = dtrace_jit_st.djs_bytes;
	uint64_t refused = dtrace_jit_st.djs_interpreted;
	char src[160];

	for (int i = 0; i < ROUNDS; i++) {
		ksnprintf(src, sizeof(src), "fbt::jit_st_target:entry /arg0 %% 7 == %d/ "
		          "{ @ = sum(arg0 %% 7 - %d + 1); }", i % 7, i % 7);
		if (prov_st_count(src, call_0_to_99, NULL) != (i % 7 <= 1 ? 15 : 14)) {
			ST_ASSERT(!"a sum differs");
			return;
		}
	}
	if (dtrace_jit_st.djs_translated == translated)
		return;                                  /* a machine without a JIT */
	kprintf("# jit: %lu DIFOs, %lu bytes of native code\n",
	        (unsigned long)(dtrace_jit_st.djs_translated - translated),
	        (unsigned long)(dtrace_jit_st.djs_bytes - bytes));
	ST_ASSERT(dtrace_jit_st.djs_bytes - bytes > 64 * 1024);
	ST_ASSERT(dtrace_jit_st.djs_interpreted == refused);   /* never out of room */
	ST_ASSERT(dtrace_jit_st.djs_translated == translated + 2 * ROUNDS);
}
