/*
 * fbt_jump_selftest.c - in-kernel self-tests of jump-optimised fbt entry
 * probes (arch/x86_64/fbt_jump.c).
 *
 * - one site: enabled with jumps on, its first byte is a jmp (0xE9), calls
 *   compute the same, the probe fires with its arguments and no probe trap
 *   is taken; disabled, the function's bytes are back; with jumps off the
 *   same site is an int3 and fires through the trap;
 * - every fbt probe enabled and disabled again, several times, while
 *   workload threads on every CPU allocate, free, yield and call probed
 *   functions: the text comes back byte-identical each time and the kernel
 *   stays alive (fbt_jump_cycles; fbt_jump_stress is the long, opt-in
 *   version: selftest=fbt_jump_stress fbtjump.cycles=N, `make fbtjump-stress`);
 * - a function with a baggage branch site inside its first five bytes keeps
 *   its entry probe on int3, and the site still switches while the probe is
 *   enabled (fbt_jump_leaves_branch_sites);
 * - pairs of threads hammer shared mutexes on every CPU while consumers of
 *   every fbt entry probe come and go, or while the entry probes of the
 *   mutex, wait-queue and scheduler functions are flipped on and off with no
 *   consumer: no mutex is ever found broken (fbt_jump_mutex_hammer; the long
 *   versions fbt_jump_mutex_hammer_long and fbt_jump_flip_hot are opt-in,
 *   run by `make fbtjump-stress`).
 *
 * Thread context.
 */
#include "arch/arch.h"
#include "kernel/baggage_site.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "tests/kernel/prov_selftest.h"
#include "trace/dtrace.h"
#include "trace/fbt_test.h"

/* text_bytes_same: is the probed text what snap holds (NULL: take the snapshot)? */
static bool text_bytes_same(uint8_t **snap)
{
	extern char __notrace_end[], _text_end[];
	size_t len = (size_t)(_text_end - __notrace_end);

	if (*snap == NULL) {
		*snap = kmalloc(len);
		if (*snap != NULL)
			memcpy(*snap, __notrace_end, len);
		return *snap != NULL;
	}
	return memcmp(*snap, __notrace_end, len) == 0;
}

static void call_frame3(void *arg)
{
	long (*volatile fn)(long, long, long, long, long, long) = fbt_st_frame;

	for (int i = 0; i < 3; i++)
		*(long *)arg += fn(1, 2, 3, 4, 5, 6);
}

/* One site, jumps on (jump) or off: its first byte, its firings, the traps they took. */
static void one_site(struct selftest_ctx *st_ctx, bool jump)
{
	dtrace_id_t id = fbt_probe_id("fbt_st_frame", "entry");
	const uint8_t *fn = (const uint8_t *)(uint64_t)fbt_st_frame;
	long (*volatile frame)(long, long, long, long, long, long) = fbt_st_frame;
	bool was = fbt_jump_on;
	uint8_t orig[8];
	long sum = 0;

	memcpy(orig, fn, sizeof(orig));
	fbt_jump_on = jump;
	ST_ASSERT(id != 0 && fbt_probe_set(id, true) == 0);
	ST_ASSERT(fn[0] == (jump ? 0xe9 : 0xcc));
	ST_ASSERT(frame(1, 2, 3, 4, 5, 6) == 91);
	ST_ASSERT(fbt_probe_set(id, false) == 0);
	ST_ASSERT(memcmp(orig, fn, sizeof(orig)) == 0);

	uint64_t traps = prov_isa_trap_count();
	ST_ASSERT(prov_st_count("fbt::fbt_st_frame:entry /arg0 == 1 && arg1 == 2 && arg2 == 3 && "
	                        "arg3 == 4 && arg4 == 5 && arg5 == 6/ { @ = count(); }",
	                        call_frame3, &sum) == 3);
	traps = prov_isa_trap_count() - traps;
	ST_ASSERT(sum == 3 * 91);
	ST_ASSERT(jump ? traps == 0 : traps >= 3);
	ST_ASSERT(memcmp(orig, fn, sizeof(orig)) == 0);
	fbt_jump_on = was;
}

SELFTEST(fbt_jump_one_site)
{
	one_site(st_ctx, true);
	one_site(st_ctx, false);
	one_site(st_ctx, true);
}

/*
 * fbt_jump_leaf: a probed function whose code touches no register but %rdi,
 * %rax and the frame's.  A caller that knows this (gcc's -fipa-ra) may keep
 * values in the other call-clobbered registers across a call to it, so a
 * jump-optimised probe on it must change none of them.
 */
__attribute__((noinline)) long fbt_jump_leaf(long a)
{
	return a * 3 + 1;
}

/*
 * call_leaf_fn: fn(7) with a sentinel in every call-clobbered register and
 * in r13..r15 (which the trampoline leaves to fbt_fire_entry, a C function,
 * and the JIT's code it may run); how many survived.
 */
static int call_leaf_fn(long (*fn)(long), long *ret)
{
	uint64_t in[10] = { 0x1111111111111111, 0x2222222222222222, 0x3333333333333333,
	                    0x4444444444444444, 0x5555555555555555, 0x6666666666666666,
	                    0x7777777777777777, 0x8888888888888888, 0x9999999999999999,
	                    0xaaaaaaaaaaaaaaaa };
	uint64_t out[10], *inp = in, *outp = out;
	int same = 0;

	/* rdi holds in until the call; every register but rax, rbx (the saved %rsp) and r12 (out) is a sentinel */
	__asm__ volatile("movq %[out], %%r12\n\t"
	                 "movq %[fn], %%rax\n\t"           /* before the stack moves: fn may be on it */
	                 "movq %[in], %%rdi\n\t"
	                 "movq %%rsp, %%rbx\n\t"
	                 "andq $-16, %%rsp\n\t"          /* the ABI's alignment at a call */
	                 "movq 0(%%rdi), %%rsi\n\t"
	                 "movq 8(%%rdi), %%rdx\n\t"
	                 "movq 16(%%rdi), %%rcx\n\t"
	                 "movq 24(%%rdi), %%r8\n\t"
	                 "movq 32(%%rdi), %%r9\n\t"
	                 "movq 40(%%rdi), %%r10\n\t"
	                 "movq 48(%%rdi), %%r11\n\t"
	                 "movq 56(%%rdi), %%r13\n\t"
	                 "movq 64(%%rdi), %%r14\n\t"
	                 "movq 72(%%rdi), %%r15\n\t"
	                 "movl $7, %%edi\n\t"
	                 "call *%%rax\n\t"
	                 "movq %%rbx, %%rsp\n\t"
	                 "movq %%rsi, 0(%%r12)\n\t"
	                 "movq %%rdx, 8(%%r12)\n\t"
	                 "movq %%rcx, 16(%%r12)\n\t"
	                 "movq %%r8, 24(%%r12)\n\t"
	                 "movq %%r9, 32(%%r12)\n\t"
	                 "movq %%r10, 40(%%r12)\n\t"
	                 "movq %%r11, 48(%%r12)\n\t"
	                 "movq %%r13, 56(%%r12)\n\t"
	                 "movq %%r14, 64(%%r12)\n\t"
	                 "movq %%r15, 72(%%r12)"
	                 : "=&a"(*ret)
	                 : [in] "m"(inp), [out] "m"(outp), [fn] "m"(fn)
	                 : "rbx", "r12", "r13", "r14", "r15", "rdi", "rsi", "rdx", "rcx", "r8", "r9",
	                   "r10", "r11", "memory", "cc");
	for (int i = 0; i < 10; i++)
		same += out[i] == in[i];
	return same;
}

static int call_leaf(long *ret)
{
	return call_leaf_fn(fbt_jump_leaf, ret);
}

struct leaf_run {
	int lr_same;                         /* registers that survived, of 10 */
	long lr_ret;
};

static void leaf_work(void *arg)
{
	struct leaf_run *lr = arg;

	lr->lr_same = call_leaf(&lr->lr_ret);
}

SELFTEST(fbt_jump_keeps_every_register)
{
	const uint8_t *fn = (const uint8_t *)(uint64_t)fbt_jump_leaf;
	struct leaf_run lr = { 0, 0 };
	bool was = fbt_jump_on;

	ST_ASSERT(call_leaf(&lr.lr_ret) == 10 && lr.lr_ret == 22);  /* the function itself keeps them */
	fbt_jump_on = true;
	/* A clause that takes the general path: a key, a string, a record. */
	ST_ASSERT(prov_st_count("fbt::fbt_jump_leaf:entry { @[arg0, probefunc] = count(); trace(arg0); }",
	                        leaf_work, &lr) == 1);
	ST_ASSERT(lr.lr_same == 10 && lr.lr_ret == 22);
	/* A predicate the JIT translates with every DIF register (rbx, r12..r14 are its %r4..%r7). */
	ST_ASSERT(prov_st_count("fbt::fbt_jump_leaf:entry /((arg0 + 1) * (arg0 + 2) + (arg0 + 3) * (arg0 + 4) + "
	                        "(arg0 + 5) * (arg0 + 6) + (arg0 + 7) * (arg0 + 8)) % 1000 != 1001/ "
	                        "{ @[probefunc] = count(); }", leaf_work, &lr) == 1);
	ST_ASSERT(lr.lr_same == 10 && lr.lr_ret == 22);
	ST_ASSERT(fn[0] != 0xe9 && fn[0] != 0xcc);           /* and the site is put back */
	fbt_jump_on = was;
}

/* ---- return sites (arch/x86_64/fbt_jump_ret.c) ---- */

/* first_change: the offset of the first byte of fn that differs from orig, or -1. */
static int first_change(const uint8_t *fn, const uint8_t *orig, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (fn[i] != orig[i])
			return (int)i;
	return -1;
}

/* ret_offset: the offset of func's first ret (its first return site), or 0. */
static uint32_t ret_offset(const char *func, struct ksym *ks)
{
	struct fbt_isa_func fi;

	if (!ksym_lookup_name(func, ks) || fbt_isa_scan(ks->ks_addr, ks->ks_size, &fi) < 0 || fi.fi_nret == 0)
		return 0;
	return fi.fi_ret[0];
}

/*
 * One return site, jumps on (jump) or off: where its jmp or int3 is, its
 * firings' arg0 (the ret's offset) and arg1 (the return value), the caller
 * they see, the stack depth (returned, to compare the two ways), the
 * traps they took, and the bytes after the disable.
 */
static int64_t one_ret(struct selftest_ctx *st_ctx, bool jump)
{
	dtrace_id_t id = fbt_probe_id("fbt_st_frame", "return");
	struct ksym ks, kc;
	uint32_t off = ret_offset("fbt_st_frame", &ks);
	const uint8_t *fn = (const uint8_t *)ks.ks_addr;
	long (*volatile frame)(long, long, long, long, long, long) = fbt_st_frame;
	bool was = fbt_jump_on;
	uint8_t orig[512];
	char src[256];
	long sum = 0;

	ST_ASSERT(off != 0 && ks.ks_size <= sizeof(orig) && ksym_lookup_name("call_frame3", &kc));
	memcpy(orig, fn, ks.ks_size);
	fbt_jump_on = jump;
	ST_ASSERT(id != 0 && fbt_probe_set(id, true) == 0);
	int at = first_change(fn, orig, ks.ks_size);
	if (jump) {                              /* the jmp: on the ret, or over the epilogue */
		ST_ASSERT(at >= 0 && (uint32_t)at <= off && off - (uint32_t)at < 20 && fn[at] == 0xe9);
		/* on the ret (the padding after it), or inside the epilogue, which ends with the ret */
		ST_ASSERT((uint32_t)at == off || (uint32_t)at + 5 <= off + 2);
	} else {                                 /* an int3: on the ret, or where the jmp would go */
		ST_ASSERT(at >= 0 && (uint32_t)at <= off && fn[at] == 0xcc);
	}
	ST_ASSERT(frame(1, 2, 3, 4, 5, 6) == 91);
	ST_ASSERT(fbt_probe_set(id, false) == 0);
	ST_ASSERT(memcmp(orig, fn, ks.ks_size) == 0);

	uint64_t traps = prov_isa_trap_count();
	ksnprintf(src, sizeof(src),
	          "fbt::fbt_st_frame:return /arg0 == %u && arg1 == 91 && caller > 0x%lx && "
	          "caller < 0x%lx/ { @ = count(); }",
	          (unsigned)off, (unsigned long)kc.ks_addr, (unsigned long)(kc.ks_addr + kc.ks_size));
	ST_ASSERT(prov_st_count(src, call_frame3, &sum) == 3);
	traps = prov_isa_trap_count() - traps;
	ST_ASSERT(sum == 3 * 91);
	ST_ASSERT(jump ? traps == 0 : traps >= 3);
	int64_t depth = prov_st_count("fbt::fbt_st_frame:return { @ = sum(stackdepth); }", call_frame3, &sum);
	ST_ASSERT(depth >= 3 * 2);
	ST_ASSERT(memcmp(orig, fn, ks.ks_size) == 0);
	fbt_jump_on = was;
	return depth;
}

SELFTEST(fbt_jump_ret_one_site)
{
	int64_t trap = one_ret(st_ctx, false);   /* an int3 on the ret (or where the jmp goes, if made) */
	int64_t jump = one_ret(st_ctx, true);

	ST_ASSERT(one_ret(st_ctx, false) == trap); /* the int3 where the jmp goes: fires through the stub */
	ST_ASSERT(jump == trap);                   /* stack() sees the same frames both ways */
}

int fbt_st_multi(int a);                     /* prov_fbt_selftest.c */

static void call_multi3(void *arg)
{
	int (*volatile fn)(int) = fbt_st_multi;

	*(long *)arg += fn(150) + fn(3) + fn(4);
}

/*
 * fbt_st_multi: two rets, arg0 and arg1 summed must be what the traps on
 * the rets give.  Both jump (the one in the middle over `mov %edi,%eax; neg
 * %eax; ret`, the last one over its padding): no trap.  Run after
 * fbt_jump_cycles (every probe at once), this once found return sites
 * decoded through the entry's int3 and refused: decoding reads the text as
 * compiled (fbt_jump_pristine).
 */
SELFTEST(fbt_jump_ret_each_ret)
{
	const char *sums = "fbt::fbt_st_multi:return { @ = sum(arg0 * 1000 + arg1 + 100); }";
	bool was = fbt_jump_on;
	long sum = 0;

	fbt_jump_on = false;
	int64_t trap = prov_st_count(sums, call_multi3, &sum);
	fbt_jump_on = true;
	uint64_t traps = prov_isa_trap_count();
	int64_t jump = prov_st_count(sums, call_multi3, &sum);
	traps = prov_isa_trap_count() - traps;
	fbt_jump_on = was;
	ST_ASSERT(trap > 0 && jump == trap && sum == 2 * (50 - 3 - 4));
	ST_ASSERT(traps == 0);
}

/* fbt_jump_rleaf: a return site that can jump, in a function that touches only %rdi and %rax. */
static volatile long fbt_jump_rsink;

__attribute__((noinline)) long fbt_jump_rleaf(long a)
{
	fbt_jump_rsink = a;
	return a * 3 + 1;
}

static void rleaf_work(void *arg)
{
	struct leaf_run *lr = arg;

	lr->lr_same = call_leaf_fn(fbt_jump_rleaf, &lr->lr_ret);
}

SELFTEST(fbt_jump_ret_keeps_every_register)
{
	struct leaf_run lr = { 0, 0 };
	bool was = fbt_jump_on;
	struct ksym ks;
	uint32_t off = ret_offset("fbt_jump_rleaf", &ks);
	uint8_t orig[64];

	ST_ASSERT(off != 0 && ks.ks_size <= sizeof(orig));
	memcpy(orig, (const void *)ks.ks_addr, ks.ks_size);
	ST_ASSERT(call_leaf_fn(fbt_jump_rleaf, &lr.lr_ret) == 10 && lr.lr_ret == 22);
	fbt_jump_on = true;
	uint64_t traps = prov_isa_trap_count();
	ST_ASSERT(prov_st_count("fbt::fbt_jump_rleaf:return /arg1 == 22/ { @[arg0, probefunc] = count(); "
	                        "trace(arg1); }", rleaf_work, &lr) == 1);
	traps = prov_isa_trap_count() - traps;
	ST_ASSERT(lr.lr_same == 10 && lr.lr_ret == 22);
	ST_ASSERT(traps == 0);
	ST_ASSERT(memcmp(orig, (const void *)ks.ks_addr, ks.ks_size) == 0);
	fbt_jump_on = was;
}

/*
 * fbt_jump_branchsite: a baggage branch site (kernel/baggage_site.h) right
 * after the frame's two instructions, inside the five bytes a jmp would
 * displace.  Its entry probe must stay on int3: baggage_sites_set patches
 * the site's first byte at run time, which would land inside the jmp's
 * displacement (and a copy of the site would keep its old state).
 */
__attribute__((noinline)) long fbt_jump_branchsite(long a)
{
	if (baggage_site_taken())
		return a + 1000;
	return a;
}

SELFTEST(fbt_jump_leaves_branch_sites)
{
	long (*volatile fn)(long) = fbt_jump_branchsite;
	const uint8_t *p = (const uint8_t *)(uint64_t)fbt_jump_branchsite;
	dtrace_id_t id = fbt_probe_id("fbt_jump_branchsite", "entry");
	bool was = fbt_jump_on, site_near = false;
	uint8_t orig[16];

	for (const struct baggage_site *b = __start_baggage_sites; b < __stop_baggage_sites; b++)
		site_near = site_near || (b->bs_addr > (uint64_t)p && b->bs_addr < (uint64_t)p + 5);
	ST_ASSERT(site_near);                        /* the layout this test is about */
	memcpy(orig, p, sizeof(orig));
	fbt_jump_on = true;
	ST_ASSERT(id != 0 && fbt_probe_set(id, true) == 0);
	ST_ASSERT(p[0] == 0xcc);                     /* refused: the trap */
	baggage_sites_set(true);
	ST_ASSERT(fn(1) == 1001);
	baggage_sites_set(false);
	ST_ASSERT(fn(2) == 2);
	ST_ASSERT(fbt_probe_set(id, false) == 0);
	ST_ASSERT(memcmp(orig, p, sizeof(orig)) == 0);
	fbt_jump_on = was;
}

/* ---- every probe, over and over, under load ---- */

static volatile bool load_stop;

static void load_fn(void *arg)
{
	long (*volatile fn)(long, long, long, long, long, long) = fbt_st_frame;
	long sum = 0;

	thread_bind((int)(uint64_t)arg);
	while (!load_stop) {
		for (int i = 0; i < 50; i++) {
			void *p = kmalloc((size_t)(16 + i * 8));
			sum += fn(i, 2, 3, 4, 5, 6);
			kfree(p);
		}
		thread_yield();
	}
	if (sum == 42)
		kprintf("# %ld\n", sum);             /* keep the calls */
}

static void cycles(struct selftest_ctx *st_ctx, int n)
{
	uint64_t tids[MAX_CPUS];
	uint8_t *snap = NULL;
	struct fbt_jump_stats js;
	int nload = ncpus > 1 ? ncpus : 2, jumps = 0, armed = 0, rjumps = 0, rarmed = 0;

	fbt_probe_id("kmain", "entry");              /* makes the probes */
	ST_ASSERT(text_bytes_same(&snap));
	load_stop = false;
	for (int i = 0; i < nload; i++)
		tids[i] = thread_spawn("jump-load", load_fn, (void *)(uint64_t)(i % ncpus));
	for (int c = 0; c < n; c++) {
		int on = fbt_set_all(true);
		fbt_isa_jump_stats(&js);
		jumps = js.fjs_jumps;
		rjumps = js.fjs_ret_jumps;
		rarmed = fbt_return_armed();
		armed = on;
		thread_sleep_ns(5 * NSEC_PER_MSEC);
		ST_ASSERT(fbt_set_all(false) == on);
		ST_ASSERT(text_bytes_same(&snap));
	}
	load_stop = true;
	for (int i = 0; i < nload; i++)
		thread_join(tids[i]);
	fbt_isa_jump_stats(&js);
	ST_ASSERT(js.fjs_jumps == 0 && js.fjs_ret_jumps == 0);
	if (fbt_jump_on)
		ST_ASSERT(jumps > 0 && rjumps > 0);
	kprintf("# fbt jump: %d cycles on %d CPUs; last: %d probes enabled, %d entry sites by jump; "
	        "%d stubs, %d refused, %d waits given up, %d branches into prologues noted\n",
	        n, ncpus, armed, jumps, js.fjs_stubs, js.fjs_refused, js.fjs_busy, js.fjs_notes);
	kprintf("# fbt jump: last: %d of %d return sites by jump; %d return stubs (%d over the ret and "
	        "padding, %d over the epilogue), %d refused; %d branches into other functions' bodies noted\n",
	        rjumps, rarmed, js.fjs_ret_stubs, js.fjs_ret_padded, js.fjs_ret_stubs - js.fjs_ret_padded,
	        js.fjs_ret_refused, js.fjs_ret_notes);
	if (fbt_jump_on)
		ST_ASSERT(js.fjs_ret_padded > 0 && js.fjs_ret_stubs > js.fjs_ret_padded);  /* both kinds */
	kfree(snap);
}

/* Jumps are on by default (nofbtjump: off); these turn them on for their run whatever the boot said. */
SELFTEST(fbt_jump_cycles)
{
	bool was = fbt_jump_on;
	struct fbt_jump_stats before, after;

	fbt_jump_on = true;
	fbt_isa_jump_stats(&before);
	cycles(st_ctx, 1);
	fbt_isa_jump_stats(&after);
	fbt_jump_on = was;
	ST_ASSERT(after.fjs_unjumps_stopped > before.fjs_unjumps_stopped);   /* in one parked batch */
}

/* The same with the other CPUs never stopped: the ordered int3-first way a parking that gives up takes. */
SELFTEST(fbt_jump_cycles_ordered)
{
	bool was = fbt_jump_on;
	struct fbt_jump_stats before, after;

	fbt_jump_on = true;
	fbt_jump_park = false;
	fbt_isa_jump_stats(&before);
	cycles(st_ctx, 2);
	fbt_isa_jump_stats(&after);
	fbt_jump_park = true;
	fbt_jump_on = was;
	ST_ASSERT(after.fjs_unjumps_ordered > before.fjs_unjumps_ordered);
	ST_ASSERT(after.fjs_unjumps_stopped == before.fjs_unjumps_stopped);
}

SELFTEST_OPTIN(fbt_jump_stress)
{
	bool was = fbt_jump_on;

	fbt_jump_on = true;
	cycles(st_ctx, (int)selftest_param("fbtjump.cycles", 50));
	fbt_jump_on = was;
}

/* ---- mutexes hammered while every entry probe jumps in and out ---- */

/*
 * Pairs of threads on different CPUs take one mutex each pair shares, in a
 * tight loop, and check the mutex inside: its owner is the thread itself
 * and no other thread is inside.  Meanwhile consumers of every fbt entry
 * probe come and go (jumps on), so mutex_lock, mutex_unlock, the wait queue
 * and the scheduler are entered through jumps, traps and their original
 * bytes in turn.  A broken mutex panics (mutex_unlock's own check) or counts.
 */
struct hammer_pair {
	mutex_t hp_lock;
	volatile int hp_inside;
	uint64_t hp_count;               /* under hp_lock */
};

struct hammer_arg {
	struct hammer_pair *ha_pair;
	int ha_cpu;
	uint64_t ha_rounds;
	uint64_t ha_bad;                 /* owner not us, or someone else inside */
};

static volatile bool hammer_stop;

static void hammer_fn(void *arg)
{
	struct hammer_arg *ha = arg;
	struct hammer_pair *hp = ha->ha_pair;

	thread_bind(ha->ha_cpu);
	while (!hammer_stop) {
		mutex_lock(&hp->hp_lock);
		if (!mutex_held(&hp->hp_lock) || hp->hp_inside != 0)
			ha->ha_bad++;
		hp->hp_inside = 1;
		hp->hp_count++;
		if ((ha->ha_rounds & 63) == 0)
			thread_yield();              /* the other one sleeps on the mutex meanwhile */
		hp->hp_inside = 0;
		mutex_unlock(&hp->hp_lock);
		ha->ha_rounds++;
	}
}

static void hammer_wait(void *arg)
{
	thread_sleep_ns((uint64_t)arg * NSEC_PER_MSEC);
}

/* The hammer's threads: PAIRS pairs, each pair on one mutex, spread over the CPUs. */
enum { PAIRS = 4 };

struct hammer {
	struct hammer_pair h_pairs[PAIRS];
	struct hammer_arg h_args[2 * PAIRS];
	uint64_t h_tids[2 * PAIRS];
	uint64_t h_rounds, h_bad, h_count;   /* when stopped: lock rounds, broken ones, counted inside */
};

static void hammer_start(struct hammer *h)
{
	hammer_stop = false;
	for (int p = 0; p < PAIRS; p++) {
		mutex_init(&h->h_pairs[p].hp_lock, "hammer");
		h->h_pairs[p].hp_inside = 0;
		h->h_pairs[p].hp_count = 0;
	}
	for (int i = 0; i < 2 * PAIRS; i++) {
		h->h_args[i] = (struct hammer_arg){ &h->h_pairs[i / 2], (i + i / 2) % ncpus, 0, 0 };
		h->h_tids[i] = thread_spawn("jump-hammer", hammer_fn, &h->h_args[i]);
	}
}

static void hammer_end(struct hammer *h)
{
	hammer_stop = true;
	h->h_rounds = h->h_bad = h->h_count = 0;
	for (int i = 0; i < 2 * PAIRS; i++) {
		thread_join(h->h_tids[i]);
		h->h_rounds += h->h_args[i].ha_rounds;
		h->h_bad += h->h_args[i].ha_bad;
	}
	for (int p = 0; p < PAIRS; p++)
		h->h_count += h->h_pairs[p].hp_count;
}

static void hammer(struct selftest_ctx *st_ctx, int cycles)
{
	static struct hammer h;
	bool was = fbt_jump_on;
	int ok = 0;

	fbt_jump_on = true;
	hammer_start(&h);
	for (int c = 0; c < cycles; c++)
		ok += prov_st_count("fbt:::entry { @ = count(); }", hammer_wait, (void *)(uint64_t)(5 + c % 7)) > 0;
	hammer_end(&h);
	fbt_jump_on = was;
	kprintf("# fbt jump hammer: %d cycles on %d CPUs, %lu lock rounds, %lu broken\n", cycles, ncpus,
	        h.h_rounds, h.h_bad);
	ST_ASSERT(ok == cycles);
	ST_ASSERT(h.h_bad == 0 && h.h_count == h.h_rounds);
}

SELFTEST(fbt_jump_mutex_hammer)
{
	hammer(st_ctx, 1);                           /* make check's budget: one consumer */
}

SELFTEST_OPTIN(fbt_jump_mutex_hammer_long)
{
	hammer(st_ctx, (int)selftest_param("fbtjump.hammer", 10));
}

/*
 * fbt_jump_flip_hot: the entry probes of the functions the hammer's threads
 * run all the time (mutexes, wait queues, the scheduler) enabled and
 * disabled as fast as the patching goes, with no consumer, while the
 * threads hammer their mutexes: every transition (int3, jmp, back) is met
 * by CPUs inside those functions.
 */
static const char *const hot_funcs[] = {
	"mutex_lock", "mutex_unlock", "waitq_sleep", "waitq_wake_one", "make_runnable",
	"thread_yield", "arch_thread_switch", "arch_switch", "mutex_held", "rq_push", "kmalloc", "kfree",
};

static void flip_hot(struct selftest_ctx *st_ctx, int flips)
{
	static struct hammer h;
	dtrace_id_t ids[ARRAY_SIZE(hot_funcs)];
	bool was = fbt_jump_on, set = true;
	int nids = 0;

	for (size_t i = 0; i < ARRAY_SIZE(hot_funcs); i++) {
		dtrace_id_t id = fbt_probe_id(hot_funcs[i], "entry");
		if (id != 0)
			ids[nids++] = id;
	}
	fbt_jump_on = true;
	hammer_start(&h);
	for (int f = 0; f < flips && set; f++)
		for (int i = 0; i < nids && set; i++)
			set = fbt_probe_set(ids[i], (f + i) % 3 != 0) == 0;
	for (int i = 0; i < nids; i++)
		fbt_probe_set(ids[i], false);
	hammer_end(&h);
	fbt_jump_on = was;
	kprintf("# fbt jump flip: %d flips of %d hot entry probes on %d CPUs, %lu lock rounds, %lu broken\n",
	        flips, nids, ncpus, h.h_rounds, h.h_bad);
	ST_ASSERT(set);
	ST_ASSERT(h.h_bad == 0 && h.h_count == h.h_rounds);
}

SELFTEST_OPTIN(fbt_jump_flip_hot)
{
	flip_hot(st_ctx, (int)selftest_param("fbtjump.flips", 40));
}
