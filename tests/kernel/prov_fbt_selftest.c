/*
 * prov_fbt_selftest.c - in-kernel self-tests of fbt's mechanism, without a
 * consumer: the instruction decoder on the whole kernel, planting and
 * removing traps, replaying the displaced instruction (standard prologue,
 * frameless leaf, RIP-relative load), return emulation, arguments and return
 * values, "enable every probe, keep running, disable: text unchanged", and a
 * trap met after its site was disarmed (a stale trap byte) replaying once.
 *
 * Two kinds of test: the mechanism alone (fbt_probe_set, as the framework's
 * enable op would: bytes change, calls still compute the same, bytes come
 * back), and firings seen through a real enabling (prov_st_count).
 */
#include "arch/arch.h"
#include "arch/x86_64/x86_decode.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "tests/kernel/prov_selftest.h"
#include "trace/dtrace.h"
#include "trace/fbt_test.h"


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

/*
 * STALE: plant func:name's traps, then mark its sites unarmed with the traps
 * still in place, as a CPU that goes on running a trap byte after the disable
 * (fbt::: enabled twice under load on 4 CPUs once hung that way) meets them: a call must still compute, once (the
 * trap replays the displaced instruction instead of sending the CPU back to
 * the same trap forever).  Then the function's bytes are put back.
 */
#define STALE(func, name, call, expect) do {                                       \
	dtrace_id_t id_ = fbt_probe_id(func, name);                                    \
	struct ksym ks_;                                                               \
	uint8_t bytes_[512];                                                           \
	ST_ASSERT(id_ != 0 && ksym_lookup_name(func, &ks_) && ks_.ks_size <= sizeof(bytes_)); \
	memcpy(bytes_, (const void *)ks_.ks_addr, ks_.ks_size);                       \
	ST_ASSERT(fbt_probe_set(id_, true) == 0);                                      \
	ST_ASSERT(fbt_probe_unarm_stale(id_) > 0);                                     \
	ST_ASSERT((call) == (expect));                                                 \
	ST_ASSERT(text_patch((void *)ks_.ks_addr, bytes_, ks_.ks_size));               \
	text_patch_sync();                                                             \
	ST_ASSERT((call) == (expect));                                                 \
} while (0)

SELFTEST(fbt_stale_trap_replays)
{
	long (*volatile frame)(long, long, long, long, long, long) = fbt_st_frame;
	long (*volatile leaf)(long) = fbt_st_leaf;
	int (*volatile multi)(int) = fbt_st_multi;

	STALE("fbt_st_frame", "entry", frame(1, 2, 3, 4, 5, 6), 91);
	STALE("fbt_st_frame", "return", frame(1, 2, 3, 4, 5, 6), 91);
	STALE("fbt_st_leaf", "entry", leaf(7), 22);
	STALE("fbt_st_multi", "return", multi(150) + multi(3), 47);
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

/* What dtrace -l -P fbt lists is what the provider made: one entry per probed function with a movable first instruction. */
SELFTEST(fbt_listing_counts)
{
	struct fbt_stats st;
	dtrace_probedesc_t d = { .dpd_provider = "fbt" };

	fbt_probe_id("kmain", "entry");
	fbt_stats_get(&st);
	ST_ASSERT(dtrace_probe_count(&d) == st.fst_probes);
	kstrlcpy(d.dpd_name, "entry", sizeof(d.dpd_name));
	ST_ASSERT(dtrace_probe_count(&d) == st.fst_probed - st.fst_no_entry);
	kstrlcpy(d.dpd_name, "return", sizeof(d.dpd_name));
	ST_ASSERT(dtrace_probe_count(&d) > st.fst_probed * 3 / 4);
	ST_ASSERT(st.fst_probed > st.fst_functions * 3 / 4);
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

/* ---- the instruction-length decoder, on encodings whose lengths are known ---- */

struct decode_vector {
	const char *what;
	uint8_t bytes[15];
	int avail;                   /* bytes readable (0: all 15) */
	int len;                     /* expected length, -1: refused */
	enum x86_kind kind;
	int riprel;                  /* offset of the RIP-relative disp32, or -1 */
};

static const struct decode_vector decode_vectors[] = {
	{ "push %rbp", { 0x55 }, 0, 1, X86_OTHER, -1 },
	{ "mov %rsp,%rbp", { 0x48, 0x89, 0xe5 }, 0, 3, X86_OTHER, -1 },
	{ "ret", { 0xc3 }, 0, 1, X86_RET, -1 },
	{ "rep ret", { 0xf3, 0xc3 }, 0, 2, X86_RET, -1 },
	{ "ret $8", { 0xc2, 0x08, 0x00 }, 0, 3, X86_RET_IMM, -1 },
	{ "nopl 0(%rax,%rax) (sdt site)", { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 0, 5, X86_OTHER, -1 },
	{ "nopw %cs:0(%rax,%rax)", { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 }, 0, 10, X86_OTHER, -1 },
	{ "mov x(%rip),%rax", { 0x48, 0x8b, 0x05, 0x78, 0x56, 0x34, 0x12 }, 0, 7, X86_OTHER, 3 },
	{ "movl $1,x(%rip)", { 0xc7, 0x05, 1, 2, 3, 4, 1, 0, 0, 0 }, 0, 10, X86_OTHER, 2 },
	{ "lea 1(%rdi,%rdi),%rax", { 0x48, 0x8d, 0x44, 0x3f, 0x01 }, 0, 5, X86_OTHER, -1 },
	{ "mov 8(%rsp),%r8d", { 0x44, 0x8b, 0x44, 0x24, 0x08 }, 0, 5, X86_OTHER, -1 },
	{ "mov abs32,%eax (SIB, no base)", { 0x8b, 0x04, 0x25, 1, 2, 3, 4 }, 0, 7, X86_OTHER, -1 },
	{ "call rel32", { 0xe8, 0, 0, 0, 0 }, 0, 5, X86_CALL, -1 },
	{ "jmp rel32", { 0xe9, 0, 0, 0, 0 }, 0, 5, X86_JMP, -1 },
	{ "jmp rel8", { 0xeb, 0x05 }, 0, 2, X86_JMP, -1 },
	{ "je rel8", { 0x74, 0x05 }, 0, 2, X86_JCC, -1 },
	{ "je rel32", { 0x0f, 0x84, 0, 0, 0, 0 }, 0, 6, X86_JCC, -1 },
	{ "call *x(%rip)", { 0xff, 0x15, 0, 0, 0, 0 }, 0, 6, X86_CALL_IND, 2 },
	{ "jmp *%rax", { 0xff, 0xe0 }, 0, 2, X86_JMP_IND, -1 },
	{ "movabs $imm64,%rax", { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 }, 0, 10, X86_OTHER, -1 },
	{ "mov $imm32,%eax", { 0xb8, 1, 2, 3, 4 }, 0, 5, X86_OTHER, -1 },
	{ "mov $imm16,%ax", { 0x66, 0xb8, 1, 2 }, 0, 4, X86_OTHER, -1 },
	{ "mov $-1,%rax", { 0x48, 0xc7, 0xc0, 0xff, 0xff, 0xff, 0xff }, 0, 7, X86_OTHER, -1 },
	{ "test $1,%bl", { 0xf6, 0xc3, 0x01 }, 0, 3, X86_OTHER, -1 },
	{ "test $0x100,%ecx", { 0xf7, 0xc1, 0, 1, 0, 0 }, 0, 6, X86_OTHER, -1 },
	{ "neg %al (group 3, no immediate)", { 0xf6, 0xd8 }, 0, 2, X86_OTHER, -1 },
	{ "sub $0x100,%rsp", { 0x48, 0x81, 0xec, 0, 1, 0, 0 }, 0, 7, X86_OTHER, -1 },
	{ "sub $16,%rsp", { 0x48, 0x83, 0xec, 0x10 }, 0, 4, X86_OTHER, -1 },
	{ "lock cmpxchg %rdx,(%rdi)", { 0xf0, 0x48, 0x0f, 0xb1, 0x17 }, 0, 5, X86_OTHER, -1 },
	{ "movzbl (%rdi),%eax", { 0x0f, 0xb6, 0x07 }, 0, 3, X86_OTHER, -1 },
	{ "enter $16,$0", { 0xc8, 0x10, 0x00, 0x00 }, 0, 4, X86_OTHER, -1 },
	{ "bt $3,%eax", { 0x0f, 0xba, 0xe0, 0x03 }, 0, 4, X86_OTHER, -1 },
	{ "movbe (%rdi),%eax (0F 38)", { 0x0f, 0x38, 0xf0, 0x07 }, 0, 4, X86_OTHER, -1 },
	{ "palignr $8 (0F 3A)", { 0x66, 0x0f, 0x3a, 0x0f, 0xc1, 0x08 }, 0, 6, X86_OTHER, -1 },
	{ "cpuid", { 0x0f, 0xa2 }, 0, 2, X86_OTHER, -1 },
	{ "ud2", { 0x0f, 0x0b }, 0, 2, X86_SYSTEM, -1 },
	{ "iretq", { 0x48, 0xcf }, 0, 2, X86_SYSTEM, -1 },
	{ "int3", { 0xcc }, 0, 1, X86_INT3, -1 },
	{ "VEX (refused)", { 0xc4, 0xe2, 0x79, 0x18, 0x07 }, 0, -1, X86_OTHER, -1 },
	{ "EVEX (refused)", { 0x62, 0xf1, 0x7c, 0x48, 0x10, 0x07 }, 0, -1, X86_OTHER, -1 },
	{ "push %es (invalid in 64-bit mode)", { 0x06 }, 0, -1, X86_OTHER, -1 },
	{ "truncated REX", { 0x48 }, 1, -1, X86_OTHER, -1 },
	{ "truncated displacement", { 0x48, 0x8b, 0x05, 0x78 }, 4, -1, X86_OTHER, -1 },
	{ "16 prefixes (over 15 bytes)", { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	                                    0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66 }, 0, -1,
	  X86_OTHER, -1 },
};

SELFTEST(x86_decode_vectors)
{
	for (size_t i = 0; i < ARRAY_SIZE(decode_vectors); i++) {
		const struct decode_vector *v = &decode_vectors[i];
		struct x86_insn xi;
		int n = x86_decode(v->bytes, v->avail ? (size_t)v->avail : 15, &xi);
		bool ok = n == v->len && (n < 0 || (xi.xi_kind == v->kind && xi.xi_riprel == v->riprel));
		if (!ok)
			kprintf("# x86_decode: %s: length %d kind %d riprel %d\n", v->what, n,
			        n < 0 ? -1 : (int)xi.xi_kind, n < 0 ? -1 : xi.xi_riprel);
		ST_ASSERT(ok);
	}
}

/* Decoding a function walks exactly to its end; a leaf ends in its ret. */
SELFTEST(x86_decode_walks_a_function)
{
	struct ksym ks;
	struct x86_insn xi;
	uint64_t off = 0, last = 0;

	ST_ASSERT(ksym_lookup_name("fbt_st_leaf", &ks));
	while (off < ks.ks_size) {
		int n = x86_decode((const uint8_t *)ks.ks_addr + off, ks.ks_size - off, &xi);
		ST_ASSERT(n > 0);
		if (n <= 0)
			return;
		last = off;
		off += (uint64_t)n;
	}
	ST_ASSERT(off == ks.ks_size);
	ST_ASSERT(*((const uint8_t *)ks.ks_addr + last) == 0xc3);
}
