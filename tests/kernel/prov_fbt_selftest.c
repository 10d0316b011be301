/*
 * prov_fbt_selftest.c - in-kernel self-tests of fbt's mechanism, without a
 * consumer: the instruction decoder on the whole kernel, planting and
 * removing traps, replaying the displaced instruction (standard prologue,
 * frameless leaf, RIP-relative load), return emulation, arguments and return
 * values, and "enable every probe, keep running, disable: text unchanged".
 *
 * The provider's test entry points are weak references, so this file links
 * (and its tests pass vacuously) in a kernel built without trace/.
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "trace/provider.h"

#define WEAK __attribute__((weak))

struct fbt_stats {
	int fst_functions, fst_probed, fst_blocked, fst_undecodable, fst_no_entry;
	int fst_probes, fst_sites;
};
dtrace_id_t fbt_probe_id(const char *func, const char *name) WEAK;
int fbt_probe_set(dtrace_id_t id, bool on) WEAK;
int fbt_set_all(bool on) WEAK;
void fbt_stats_get(struct fbt_stats *out) WEAK;
void fbt_init(void) WEAK;
/* The stand-in framework used before trace/ was built records firings here. */
extern uint64_t stub_fired[] WEAK;
extern uint64_t stub_lastargs[][2] WEAK;
extern uint64_t stub_last_frame[2] WEAK;
void stub_providers_init(void) WEAK;

/* Functions to probe.  noipa: calls really reach them, with these arguments. */
#define PROBED __attribute__((noipa))

PROBED long fbt_st_frame(long a, long b, long c, long d, long e, long f)
{
	long v[4] = { a, b, c, d };

	__asm__ volatile("" :: "r"(v) : "memory");   /* needs a stack frame */
	return v[0] + v[1] * 2 + v[2] * 3 + v[3] * 4 + e * 5 + f * 6;
}

PROBED long fbt_st_leaf(long a)
{
	return a * 3 + 1;
}

volatile long fbt_st_global = 41;

PROBED long fbt_st_riprel(void)
{
	return fbt_st_global + 1;
}

PROBED int fbt_st_multi(int x)
{
	if (x > 100) {
		__asm__ volatile("" ::: "memory");
		return x - 100;
	}
	__asm__ volatile("" ::: "memory");
	return -x;
}

static bool fbt_available(void)
{
	if (fbt_probe_id == NULL)
		return false;
	if (stub_providers_init != NULL)
		stub_providers_init();
	return fbt_probe_id("fbt_st_leaf", "entry") != 0;
}

static uint64_t func_sum(const char *name, uint64_t *size)
{
	struct ksym ks;
	uint64_t sum = 0;

	if (!ksym_lookup_name(name, &ks))
		return 0;
	for (uint64_t i = 0; i < ks.ks_size; i++)
		sum = sum * 31 + ((const uint8_t *)ks.ks_addr)[i];
	*size = ks.ks_size;
	return sum;
}

static uint64_t text_sum(void)
{
	extern char __notrace_end[], _text_end[];
	uint64_t sum = 0;

	/* What fbt patches: the text after the notrace region (which holds its copies). */
	for (const uint64_t *p = (const uint64_t *)ALIGN_UP((uint64_t)__notrace_end, 8); p < (const uint64_t *)_text_end; p++)
		sum = sum * 1000003 + *p;
	return sum;
}

/* probe_roundtrip: enable probe func:name, run call, check it fired, disable, bytes back. */
#define PROBE_ROUNDTRIP(func, name, call, expect, a0, a1) do {                     \
	dtrace_id_t id_ = fbt_probe_id(func, name);                                    \
	uint64_t size_, sum_ = func_sum(func, &size_), fired_ = 0;                     \
	ST_ASSERT(id_ != 0);                                                           \
	if (stub_fired != NULL)                                                        \
		fired_ = stub_fired[id_];                                              \
	ST_ASSERT(fbt_probe_set(id_, true) == 0);                                      \
	ST_ASSERT(func_sum(func, &size_) != sum_);                                     \
	ST_ASSERT((call) == (expect));                                                 \
	ST_ASSERT((call) == (expect));                                                 \
	if (stub_fired != NULL) {                                                      \
		ST_ASSERT(stub_fired[id_] == fired_ + 2);                              \
		ST_ASSERT(stub_lastargs[id_][0] == (uint64_t)(a0));                    \
		ST_ASSERT(stub_lastargs[id_][1] == (uint64_t)(a1));                    \
	}                                                                              \
	ST_ASSERT(fbt_probe_set(id_, false) == 0);                                     \
	ST_ASSERT(func_sum(func, &size_) == sum_);                                     \
	ST_ASSERT((call) == (expect));                                                 \
	if (stub_fired != NULL)                                                        \
		ST_ASSERT(stub_fired[id_] == fired_ + 2);                              \
} while (0)

SELFTEST(fbt_entry_frame)
{
	long (*volatile fn)(long, long, long, long, long, long) = fbt_st_frame;

	if (!fbt_available())
		return;
	PROBE_ROUNDTRIP("fbt_st_frame", "entry", fn(1, 2, 3, 4, 5, 6), 91, 1, 2);
}

SELFTEST(fbt_entry_leaf)
{
	long (*volatile fn)(long) = fbt_st_leaf;

	if (!fbt_available())
		return;
	PROBE_ROUNDTRIP("fbt_st_leaf", "entry", fn(7), 22, 7, 0);
}

SELFTEST(fbt_entry_riprel)
{
	long (*volatile fn)(void) = fbt_st_riprel;

	if (!fbt_available())
		return;
	PROBE_ROUNDTRIP("fbt_st_riprel", "entry", fn(), 42, 0, 0);
	fbt_st_global = 9;
	PROBE_ROUNDTRIP("fbt_st_riprel", "entry", fn(), 10, 0, 0);
	fbt_st_global = 41;
}

SELFTEST(fbt_return_value)
{
	long (*volatile fn)(long) = fbt_st_leaf;
	struct ksym ks;

	if (!fbt_available())
		return;
	ST_ASSERT(ksym_lookup_name("fbt_st_leaf", &ks));
	/* arg0 = offset of the ret: the leaf's last byte. */
	PROBE_ROUNDTRIP("fbt_st_leaf", "return", fn(5), 16, ks.ks_size - 1, 16);
}

SELFTEST(fbt_return_multi)
{
	int (*volatile fn)(int) = fbt_st_multi;
	dtrace_id_t id;

	if (!fbt_available())
		return;
	id = fbt_probe_id("fbt_st_multi", "return");
	ST_ASSERT(id != 0);
	uint64_t size, sum = func_sum("fbt_st_multi", &size);
	ST_ASSERT(fbt_probe_set(id, true) == 0);
	ST_ASSERT(fn(150) == 50);
	if (stub_lastargs != NULL)
		ST_ASSERT(stub_lastargs[id][1] == 50);
	ST_ASSERT(fn(3) == -3);
	if (stub_lastargs != NULL)
		ST_ASSERT((int)stub_lastargs[id][1] == -3);
	ST_ASSERT(fbt_probe_set(id, false) == 0);
	ST_ASSERT(func_sum("fbt_st_multi", &size) == sum);
}

/* stack(): the frame handed to the framework starts at the probed function's caller. */
SELFTEST(fbt_entry_frame_pointer)
{
	long (*volatile fn)(long) = fbt_st_leaf;
	struct ksym ks;

	if (!fbt_available() || stub_last_frame == NULL)
		return;
	dtrace_id_t id = fbt_probe_id("fbt_st_leaf", "entry");
	ST_ASSERT(fbt_probe_set(id, true) == 0);
	fn(1);
	ST_ASSERT(fbt_probe_set(id, false) == 0);
	ST_ASSERT(ksym_lookup_name("fbt_st_leaf", &ks));
	ST_ASSERT(stub_last_frame[0] == ks.ks_addr);
	/* fp[1] is the return address into this test function. */
	uint64_t ret = ((uint64_t *)stub_last_frame[1])[1];
	ST_ASSERT(ksym_lookup_addr(ret, &ks));
	ST_ASSERT(strcmp(ks.ks_name, "selftest_fn_fbt_entry_frame_pointer") == 0);
}

static void churn(void)
{
	for (int i = 0; i < 200; i++) {
		void *p = kmalloc((size_t)(16 + i));
		kfree(p);
	}
	thread_sleep_ns(20 * 1000 * 1000);
	thread_yield();
}

/* Every probe at once: the kernel keeps running, and the text comes back intact. */
SELFTEST(fbt_enable_all_text_restored)
{
	struct fbt_stats st;

	if (!fbt_available())
		return;
	fbt_stats_get(&st);
	uint64_t before = text_sum();
	int n = fbt_set_all(true);
	ST_ASSERT(n == st.fst_probes);
	ST_ASSERT(text_sum() != before);
	churn();
	ST_ASSERT(fbt_set_all(false) == n);
	ST_ASSERT(text_sum() == before);
	kprintf("# fbt: %d of %d functions probed (%d excluded by name, %d undecodable, "
	        "%d without entry), %d probes, %d sites\n", st.fst_probed, st.fst_functions,
	        st.fst_blocked, st.fst_undecodable, st.fst_no_entry, st.fst_probes, st.fst_sites);
}
