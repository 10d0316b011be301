/*
 * prov_fbt_selftest.c - in-kernel self-tests of fbt's mechanism, without a
 * consumer: the instruction decoder on the whole kernel, planting and
 * removing traps, replaying the displaced instruction (standard prologue,
 * frameless leaf, RIP-relative load), return emulation, arguments and return
 * values, and "enable every probe, keep running, disable: text unchanged".
 *
 * Two kinds of test: the mechanism alone (fbt_probe_set, as the framework's
 * enable op would: bytes change, calls still compute the same, bytes come
 * back), and firings seen through a real enabling (prov_st_count).
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "tests/kernel/prov_selftest.h"
#include "trace/provider.h"

/* prov_fbt.c's entry points for tests. */
struct fbt_stats {
	int fst_functions, fst_probed, fst_blocked, fst_undecodable, fst_no_entry;
	int fst_probes, fst_sites;
};
dtrace_id_t fbt_probe_id(const char *func, const char *name);
int fbt_probe_set(dtrace_id_t id, bool on);
int fbt_set_all(bool on);
void fbt_stats_get(struct fbt_stats *out);

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

/* MECHANISM: plant the traps of func:name, call, remove them; the bytes come back. */
#define MECHANISM(func, name, call, expect) do {                                   \
	dtrace_id_t id_ = fbt_probe_id(func, name);                                    \
	uint64_t size_, sum_ = func_sum(func, &size_);                                 \
	ST_ASSERT(id_ != 0);                                                           \
	ST_ASSERT(fbt_probe_set(id_, true) == 0);                                      \
	ST_ASSERT(func_sum(func, &size_) != sum_);                                     \
	ST_ASSERT((call) == (expect));                                                 \
	ST_ASSERT(fbt_probe_set(id_, false) == 0);                                     \
	ST_ASSERT(func_sum(func, &size_) == sum_);                                     \
	ST_ASSERT((call) == (expect));                                                 \
} while (0)

static void call_frame(void *arg)
{
	long (*volatile fn)(long, long, long, long, long, long) = fbt_st_frame;

	for (int i = 0; i < 3; i++)
		*(long *)arg += fn(1, 2, 3, 4, 5, 6);
}

static void call_leaf(void *arg)
{
	long (*volatile fn)(long) = fbt_st_leaf;

	for (int i = 0; i < 4; i++)
		*(long *)arg += fn(5);
}

static void call_riprel(void *arg)
{
	long (*volatile fn)(void) = fbt_st_riprel;

	*(long *)arg += fn() + fn();
}

static void call_multi(void *arg)
{
	int (*volatile fn)(int) = fbt_st_multi;

	*(long *)arg += fn(150) + fn(3) + fn(4);
}

SELFTEST(fbt_mechanism_each_kind)
{
	long (*volatile frame)(long, long, long, long, long, long) = fbt_st_frame;
	long (*volatile leaf)(long) = fbt_st_leaf;
	long (*volatile riprel)(void) = fbt_st_riprel;
	int (*volatile multi)(int) = fbt_st_multi;

	MECHANISM("fbt_st_frame", "entry", frame(1, 2, 3, 4, 5, 6), 91);
	MECHANISM("fbt_st_frame", "return", frame(1, 2, 3, 4, 5, 6), 91);
	MECHANISM("fbt_st_leaf", "entry", leaf(7), 22);
	MECHANISM("fbt_st_leaf", "return", leaf(7), 22);
	MECHANISM("fbt_st_riprel", "entry", riprel(), 42);
	MECHANISM("fbt_st_multi", "return", multi(150) + multi(3), 47);
}

SELFTEST(fbt_entry_args)
{
	long sum = 0;

	ST_ASSERT(prov_st_count("fbt::fbt_st_frame:entry /arg0 == 1 && arg1 == 2 && arg2 == 3 && "
	                        "arg3 == 4 && arg4 == 5 && arg5 == 6/ { @ = count(); }",
	                        call_frame, &sum) == 3);
	ST_ASSERT(sum == 3 * 91);
	ST_ASSERT(prov_st_count("fbt::fbt_st_leaf:entry { @ = sum(arg0); }", call_leaf, &sum) == 20);
	ST_ASSERT(prov_st_count("fbt::fbt_st_riprel:entry { @ = count(); }", call_riprel, &sum) == 2);
	ST_ASSERT(sum == 3 * 91 + 4 * 16 + 2 * 42);
}

SELFTEST(fbt_return_args)
{
	struct ksym ks;
	char src[160];
	long sum = 0;

	/* arg0 = offset of the ret (the leaf's last byte), arg1 = the return value. */
	ST_ASSERT(ksym_lookup_name("fbt_st_leaf", &ks));
	ksnprintf(src, sizeof(src), "fbt::fbt_st_leaf:return /arg0 == %lu && arg1 == 16/ "
	          "{ @ = count(); }", ks.ks_size - 1);
	ST_ASSERT(prov_st_count(src, call_leaf, &sum) == 4);
	/* Every return site fires: 50, -3, -4. */
	ST_ASSERT(prov_st_count("fbt::fbt_st_multi:return { @ = sum((int)arg1); }",
	                        call_multi, &sum) == 43);
	ST_ASSERT(prov_st_count("fbt::fbt_st_multi:return { @ = count(); }", call_multi, &sum) == 3);
}

/* stack(): starts at the probed function; its caller is the calling function. */
SELFTEST(fbt_caller)
{
	struct ksym ks;
	char src[200];
	long sum = 0;

	ST_ASSERT(ksym_lookup_name("call_leaf", &ks));
	ksnprintf(src, sizeof(src), "fbt::fbt_st_leaf:entry /caller >= %lu && caller < %lu/ "
	          "{ @ = count(); }", ks.ks_addr, ks.ks_addr + ks.ks_size);
	ST_ASSERT(prov_st_count(src, call_leaf, &sum) == 4);
	ksnprintf(src, sizeof(src), "fbt::fbt_st_leaf:return /caller >= %lu && caller < %lu/ "
	          "{ @ = count(); }", ks.ks_addr, ks.ks_addr + ks.ks_size);
	ST_ASSERT(prov_st_count(src, call_leaf, &sum) == 4);
}

SELFTEST(fbt_excluded_not_listed)
{
	ST_ASSERT(fbt_probe_id("fbt_st_leaf", "entry") != 0);
	ST_ASSERT(fbt_probe_id("curcpu", "entry") == 0);           /* fbt_blocklist */
	ST_ASSERT(fbt_probe_id("trap_dispatch", "entry") == 0);    /* notrace region */
	ST_ASSERT(fbt_probe_id("dtrace_probe", "entry") == 0);
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

	fbt_probe_id("kmain", "entry");              /* makes the probes */
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
