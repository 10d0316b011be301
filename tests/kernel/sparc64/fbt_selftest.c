/*
 * fbt_selftest.c - self-tests of fbt on sparc64 (mk/sparc64.mk builds this
 * directory; tests/kernel/prov_fbt_selftest.c is x86_64's, with its
 * instruction decoder's vectors).
 *
 * What is checked: a site armed is a `ba,a` to a trampoline and the word
 * comes back when disarmed; entry probes see the six arguments, return
 * probes the offset of the return site and the result, at every return
 * site; the same for leaf functions (no save, no window: the trampoline
 * takes its own), whose %o registers and %o7 the probes leave alone;
 * caller is the calling function; and with every fbt probe enabled at
 * once the kernel keeps running and its text is byte-identical afterwards.
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "tests/kernel/prov_selftest.h"
#include "trace/dtrace.h"
#include "trace/fbt_test.h"

#define PROBED __attribute__((noipa))

/* A function with a register window (it calls), six arguments, two returns. */
PROBED long s64_fbt_frame(long a, long b, long c, long d, long e, long f)
{
	long v[4] = { a, b, c, d };

	__asm__ volatile("" :: "r"(v) : "memory");
	if (a < 0)
		return -1;
	return v[0] + v[1] * 2 + v[2] * 3 + v[3] * 4 + e * 5 + f * 6 + (long)ktime_ns() * 0;
}

static void call_frame(void *arg)
{
	long (*volatile fn)(long, long, long, long, long, long) = s64_fbt_frame;

	for (int i = 0; i < 3; i++)
		*(long *)arg += fn(1, 2, 3, 4, 5, 6);
	*(long *)arg += fn(-1, 0, 0, 0, 0, 0);
}

static uint32_t word_at(uint64_t addr) { return *(const volatile uint32_t *)addr; }

SELFTEST(s64_fbt_entry_is_a_branch)
{
	struct ksym ks;
	dtrace_id_t id = fbt_probe_id("s64_fbt_frame", "entry");
	long sum = 0;

	ST_ASSERT(id != 0 && ksym_lookup_name("s64_fbt_frame", &ks));
	uint32_t before = word_at(ks.ks_addr);
	ST_ASSERT((before >> 30) == 2 && ((before >> 19) & 0x3f) == 0x3c);     /* a save */
	ST_ASSERT(fbt_probe_set(id, true) == 0);
	ST_ASSERT((word_at(ks.ks_addr) >> 22) == (0x30800000u >> 22));         /* ba,a */
	call_frame(&sum);
	ST_ASSERT(sum == 3 * 91 - 1);
	ST_ASSERT(fbt_probe_set(id, false) == 0);
	ST_ASSERT(word_at(ks.ks_addr) == before);
}

SELFTEST(s64_fbt_entry_args)
{
	long sum = 0;

	ST_ASSERT(prov_st_count("fbt::s64_fbt_frame:entry /arg0 == 1 && arg1 == 2 && arg2 == 3 && "
	                        "arg3 == 4 && arg4 == 5 && arg5 == 6/ { @ = count(); }",
	                        call_frame, &sum) == 3);
	ST_ASSERT(sum == 3 * 91 - 1);
}

SELFTEST(s64_fbt_return_args)
{
	long sum = 0;

	/* Every return site fires, with the result in arg1: 3 * 91 - 1. */
	ST_ASSERT(prov_st_count("fbt::s64_fbt_frame:return { @ = sum((long)arg1); }",
	                        call_frame, &sum) == 3 * 91 - 1);
	ST_ASSERT(prov_st_count("fbt::s64_fbt_frame:return /arg0 > 0 && arg0 % 4 == 0/ "
	                        "{ @ = count(); }", call_frame, &sum) == 4);
}

SELFTEST(s64_fbt_caller)
{
	struct ksym ks;
	char src[200];
	long sum = 0;

	ST_ASSERT(ksym_lookup_name("call_frame", &ks));
	ksnprintf(src, sizeof(src), "fbt::s64_fbt_frame:entry /caller >= %lu && caller < %lu/ "
	          "{ @ = count(); }", ks.ks_addr, ks.ks_addr + ks.ks_size);
	ST_ASSERT(prov_st_count(src, call_frame, &sum) == 4);
	ksnprintf(src, sizeof(src), "fbt::s64_fbt_frame:return /caller >= %lu && caller < %lu/ "
	          "{ @ = count(); }", ks.ks_addr, ks.ks_addr + ks.ks_size);
	ST_ASSERT(prov_st_count(src, call_frame, &sum) == 4);
}

/*
 * Leaf functions (no save, no window of their own: they run in the
 * caller's, their arguments in %o0-%o5, their return address in %o7):
 * one with six arguments and two returns, one that is `retl; D` from its
 * first word.  The probes must leave %o0-%o7 as the leaf found them.
 */
static volatile long s64_leaf_calls;

PROBED long s64_fbt_leaf(long a, long b, long c, long d, long e, long f)
{
	s64_leaf_calls++;                    /* a first instruction that may move (not a branch) */
	if (a < 0)
		return -a * 1000;
	return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6;
}

PROBED long s64_fbt_leaf_const(void)
{
	return 77;
}

/* A leaf whose first word is a branch (taken, and not), and one gcc makes without a branch. */
PROBED void s64_fbt_leaf_branch(long *p, long v)
{
	if (v != 0)
		*p += v;
}

PROBED long s64_fbt_leaf_annul(long a)
{
	if (a == 0)
		return 5;
	return a * 3 + 1;
}

static void call_leaf(void *arg)
{
	long (*volatile fn)(long, long, long, long, long, long) = s64_fbt_leaf;
	long (*volatile k)(void) = s64_fbt_leaf_const;
	void (*volatile br)(long *, long) = s64_fbt_leaf_branch;
	long (*volatile an)(long) = s64_fbt_leaf_annul;
	long *sum = arg;

	for (int i = 0; i < 3; i++)
		*sum += fn(1, 2, 3, 4, 5, 6);
	*sum += fn(-1, 0, 0, 0, 0, 0) + k();
	br(sum, 0);
	br(sum, 1000);
	*sum += an(0) + an(10);              /* 5 + 31 */
}

#define LEAF_SUM (3 * 91 + 1000 + 77 + 1000 + 36)

static bool is_a_save(uint32_t w) { return (w >> 30) == 2 && ((w >> 19) & 0x3f) == 0x3c; }

SELFTEST(s64_fbt_leaf_entry_is_a_branch)
{
	struct ksym ks;
	const char *const names[] = { "s64_fbt_leaf", "s64_fbt_leaf_const", "s64_fbt_leaf_branch",
	                              "s64_fbt_leaf_annul" };
	long sum = 0;

	for (int i = 0; i < 4; i++) {
		dtrace_id_t id = fbt_probe_id(names[i], "entry");
		ST_ASSERT(id != 0 && ksym_lookup_name(names[i], &ks));
		if (id == 0 || !ksym_lookup_name(names[i], &ks))
			return;                          /* no probe: nothing to patch or read */
		uint32_t before = word_at(ks.ks_addr);
		ST_ASSERT(!is_a_save(before));                                  /* a leaf */
		ST_ASSERT(fbt_probe_set(id, true) == 0);
		ST_ASSERT((word_at(ks.ks_addr) >> 22) == (0x30800000u >> 22)); /* ba,a */
		call_leaf(&sum);
		ST_ASSERT(fbt_probe_set(id, false) == 0);
		ST_ASSERT(word_at(ks.ks_addr) == before);
	}
	ST_ASSERT(sum == 4 * LEAF_SUM);
}

SELFTEST(s64_fbt_leaf_entry_args)
{
	long sum = 0;

	ST_ASSERT(prov_st_count("fbt::s64_fbt_leaf:entry /arg0 == 1 && arg1 == 2 && arg2 == 3 && "
	                        "arg3 == 4 && arg4 == 5 && arg5 == 6/ { @ = count(); }",
	                        call_leaf, &sum) == 3);
	ST_ASSERT(prov_st_count("fbt::s64_fbt_leaf_const:entry { @ = count(); }",
	                        call_leaf, &sum) == 1);
	ST_ASSERT(prov_st_count("fbt::s64_fbt_leaf_branch:entry { @ = sum(arg1); }",
	                        call_leaf, &sum) == 1000);
	ST_ASSERT(prov_st_count("fbt::s64_fbt_leaf_annul:entry { @ = sum(arg0 + 1); }",
	                        call_leaf, &sum) == 12);
	ST_ASSERT(sum == 4 * LEAF_SUM);          /* the leaves computed what they would */
}

SELFTEST(s64_fbt_leaf_return_args)
{
	long sum = 0;

	/* Both returns fire, with the result (after the delay slot) in arg1. */
	ST_ASSERT(prov_st_count("fbt::s64_fbt_leaf:return { @ = sum((long)arg1); }",
	                        call_leaf, &sum) == 3 * 91 + 1000);
	ST_ASSERT(prov_st_count("fbt::s64_fbt_leaf:return /arg0 > 0 && arg0 % 4 == 0/ "
	                        "{ @ = count(); }", call_leaf, &sum) == 4);
	/* `retl; D` from the first word: one site, both probes (the return's offset is 4). */
	ST_ASSERT(prov_st_count("fbt::s64_fbt_leaf_const:return /arg0 == 4/ { @ = sum(arg1); }",
	                        call_leaf, &sum) == 77);
	ST_ASSERT(prov_st_count("fbt::s64_fbt_leaf_const:entry, fbt::s64_fbt_leaf_const:return "
	                        "{ @ = sum(probename == \"entry\" ? 1000 : arg1); }", call_leaf, &sum) == 1077);
	ST_ASSERT(sum == 4 * LEAF_SUM);
}

SELFTEST(s64_fbt_leaf_caller)
{
	struct ksym ks;
	char src[200];
	long sum = 0;

	ST_ASSERT(ksym_lookup_name("call_leaf", &ks));
	ksnprintf(src, sizeof(src), "fbt::s64_fbt_leaf:entry /caller >= %lu && caller < %lu/ "
	          "{ @ = count(); }", ks.ks_addr, ks.ks_addr + ks.ks_size);
	ST_ASSERT(prov_st_count(src, call_leaf, &sum) == 4);
	ksnprintf(src, sizeof(src), "fbt::s64_fbt_leaf:return /caller >= %lu && caller < %lu/ "
	          "{ @ = count(); }", ks.ks_addr, ks.ks_addr + ks.ks_size);
	ST_ASSERT(prov_st_count(src, call_leaf, &sum) == 4);
}

/* The probeable text: everything after the notrace region (fbt's trampolines live there). */
static const uint32_t *text_lo(void)
{
	extern char __notrace_end[];
	return (const uint32_t *)ALIGN_UP((uint64_t)__notrace_end, 4);
}

static size_t text_words(void)
{
	extern char _text_end[];
	return (size_t)((const uint32_t *)_text_end - text_lo());
}

#define INSN_BA_A_MASK 0xffc00000u      /* op, a, cond, op2 of a Bicc */
#define INSN_BA_A      0x30800000u      /* ba,a disp22 */

/*
 * How many words of the text differ from copy; the first one's address in
 * *first, and in *other how many of them are not a ba,a (what an armed
 * site holds).
 */
static size_t text_diff(const uint32_t *copy, uint64_t *first, size_t *other)
{
	const volatile uint32_t *t = text_lo();
	size_t n = 0;

	*first = 0;
	*other = 0;
	for (size_t i = 0; i < text_words(); i++) {
		uint32_t w = t[i];
		if (w == copy[i])
			continue;
		if (n++ == 0)
			*first = (uint64_t)&t[i];
		*other += (w & INSN_BA_A_MASK) != INSN_BA_A;
	}
	return n;
}

static void churn(void)
{
	for (int i = 0; i < 200; i++)
		kfree(kmalloc((size_t)(16 + i)));
	thread_sleep_ns(20 * 1000 * 1000);
	thread_yield();
}

/*
 * Every probe at once: the kernel keeps running, every site (and nothing
 * else) holds a branch while they are on, and afterwards the text is
 * byte-identical to a copy taken before, word for word.
 */
SELFTEST(s64_fbt_enable_all_text_restored)
{
	struct fbt_stats st;
	uint64_t first;
	size_t other, words = text_words();
	uint32_t *copy = kmalloc(words * 4);

	ST_ASSERT(copy != NULL);
	fbt_probe_id("kmain", "entry");              /* makes the probes */
	fbt_stats_get(&st);
	memcpy(copy, text_lo(), words * 4);
	int n = fbt_set_all(true);
	ST_ASSERT(n == st.fst_probes);
	size_t armed = text_diff(copy, &first, &other);
	ST_ASSERT(armed >= (size_t)n && armed <= (size_t)st.fst_sites);  /* a word a site, */
	ST_ASSERT(other == 0);                                           /* each a ba,a */
	churn();
	ST_ASSERT(fbt_set_all(false) == n);
	size_t left = text_diff(copy, &first, &other);
	if (left != 0)
		kprintf("# fbt: %lu words of text differ after disabling, the first at %#lx\n",
		        (unsigned long)left, first);
	ST_ASSERT(left == 0);
	kfree(copy);
	kprintf("# fbt: %d of %d functions probed (%d excluded by name, %d undecodable, "
	        "%d without entry), %d probes, %d sites (%lu armed); %lu words of text compared\n",
	        st.fst_probed, st.fst_functions, st.fst_blocked, st.fst_undecodable, st.fst_no_entry,
	        st.fst_probes, st.fst_sites, (unsigned long)armed, (unsigned long)words);
}
