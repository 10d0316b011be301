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

/* 800 consumers of about 100 bytes of native code each: more than the area holds at once. */
SELFTEST(jit_area_reused)
{
	uint64_t translated = dtrace_jit_st.djs_translated;
	uint64_t refused = dtrace_jit_st.djs_interpreted;
	char src[128];

	for (int i = 0; i < 800; i++) {
		ksnprintf(src, sizeof(src), "fbt::jit_st_target:entry /arg0 %% 7 == %d/ { @ = count(); }",
		          i % 7);
		if (prov_st_count(src, call_0_to_99, NULL) != (i % 7 <= 1 ? 15 : 14)) {
			ST_ASSERT(!"a count differs");
			return;
		}
	}
	ST_ASSERT(dtrace_jit_st.djs_interpreted == refused);   /* never out of room */
	ST_ASSERT(dtrace_jit_st.djs_translated == translated ||
	          dtrace_jit_st.djs_translated == translated + 800);
}
