/*
 * prov_bench.c - the guest half of tools/bench_probe_effect.py: shell
 * commands that run a known amount of work and print how many time-stamp
 * ticks it took.  Under -icount shift=0,align=off,sleep=off one tick is one
 * guest instruction, so the differences between runs are exact instruction
 * counts.
 *
 *   bench_calls [-q] plain|fbt|sdt N   call bench_<fn>(i) for i = 0..N-1, interrupts off
 *   bench_calls -p fbt|fbtret|sdt N     the same with the function's entry (return, SDT)
 *                                       probe enabled through the provider alone, no
 *                                       consumer: the provider's share of a firing (trap,
 *                                       lookup, replay, and dtrace_probe finding no ECB)
 *   bench_spin N                  N rounds of arithmetic, interrupts on
 *   bench_kmem N SIZE             kmalloc(SIZE) and kfree it, N times, quietly (D tests)
 *
 * The three functions have the same body.  bench_plain is NOTRACE: fbt
 * never sees it (tracing compiled out).  bench_fbt is an ordinary function:
 * fbt has probes on it, disabled unless a consumer enables them.  bench_sdt
 * adds one SDT site (a 5-byte NOP while disabled).
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"
#include "kernel/sdt.h"
#include "trace/fbt_test.h"
#include "trace/provider.h"
#include "trace/sdt_test.h"
#include "console/shell/shell.h"

#define BENCH_FN __attribute__((noipa))

NOTRACE BENCH_FN long bench_plain(long x)
{
	return x * 3 + 1;
}

BENCH_FN long bench_fbt(long x)
{
	return x * 3 + 1;
}

BENCH_FN long bench_sdt(long x)
{
	DTRACE_PROBE(bench__site);
	return x * 3 + 1;
}

static volatile long bench_sink;

/* bench_loop: call fn n times with interrupts off; the ticks it took. */
static __attribute__((noinline)) uint64_t bench_loop(long (*volatile fn)(long), uint64_t n)
{
	uint64_t flags = arch_irq_save();
	uint64_t t0 = arch_cycles();
	long acc = 0;

	for (uint64_t i = 0; i < n; i++)
		acc += fn((long)i);
	uint64_t t1 = arch_cycles();
	arch_irq_restore(flags);
	bench_sink = acc;
	return t1 - t0;
}

/* bench_provider_only: N calls with one probe enabled by its provider alone. */
static int bench_provider_only(const char *which, uint64_t n)
{
	bool sdt = strcmp(which, "sdt") == 0, ret = strcmp(which, "fbtret") == 0;
	dtrace_id_t id = sdt ? sdt_probe_id("bench_sdt", "bench-site") :
	                 fbt_probe_id("bench_fbt", ret ? "return" : "entry");
	int (*set)(dtrace_id_t, bool) = sdt ? sdt_probe_set : fbt_probe_set;

	if (id == 0 || (!sdt && !ret && strcmp(which, "fbt") != 0) || set(id, true) != 0)
		return shell_usage("bench_calls");
	uint64_t traps = prov_isa_trap_count();
	uint64_t ticks = bench_loop(sdt ? bench_sdt : bench_fbt, n);
	traps = prov_isa_trap_count() - traps;
	set(id, false);
	kprintf("bench_calls: -p %s %lu calls %lu ticks %lu traps\n", which, n, ticks, traps);
	return SHELL_OK;
}

static int cmd_bench_calls(int argc, char **argv)
{
	static const struct { const char *name; long (*fn)(long); } fns[] = {
		{ "plain", bench_plain }, { "fbt", bench_fbt }, { "sdt", bench_sdt },
	};
	bool quiet = argc == 4 && strcmp(argv[1], "-q") == 0;  /* for D tests: no output */
	uint64_t n;

	argv += quiet;
	argc -= quiet;
	if (argc == 4 && strcmp(argv[1], "-p") == 0 && kstrtou64(argv[3], &n))
		return bench_provider_only(argv[2], n);
	if (argc != 3 || !kstrtou64(argv[2], &n))
		return shell_usage("bench_calls");
	for (size_t i = 0; i < ARRAY_SIZE(fns); i++) {
		if (strcmp(fns[i].name, argv[1]) != 0)
			continue;
		uint64_t traps = prov_isa_trap_count();
		uint64_t ticks = bench_loop(fns[i].fn, n);
		traps = prov_isa_trap_count() - traps;
		if (!quiet)
			kprintf("bench_calls: %s %lu calls %lu ticks %lu traps\n", argv[1], n, ticks, traps);
		return SHELL_OK;
	}
	return shell_usage("bench_calls");
}
SHELL_COMMAND(bench_calls, cmd_bench_calls, "bench_calls [-q] plain|fbt|sdt N | -p fbt|fbtret|sdt N",
              "time N calls of a probe-effect benchmark function (tools/bench_probe_effect.py)");

static __attribute__((noipa)) uint64_t bench_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdUL;
	x ^= x >> 29;
	return x;
}

static int cmd_bench_spin(int argc, char **argv)
{
	uint64_t n, x = 1;

	if (argc != 2 || !kstrtou64(argv[1], &n))
		return shell_usage(argv[0]);
	uint64_t t0 = arch_cycles();
	for (uint64_t i = 0; i < n; i++)
		x = bench_mix(x + i);
	uint64_t t1 = arch_cycles();
	bench_sink = (long)x;
	kprintf("bench_spin: %lu rounds %lu ticks\n", n, t1 - t0);
	return SHELL_OK;
}
SHELL_COMMAND(bench_spin, cmd_bench_spin, "bench_spin N",
              "N rounds of arithmetic with interrupts on, timed (tools/bench_probe_effect.py)");

static int cmd_bench_kmem(int argc, char **argv)
{
	uint64_t n, size;

	if (argc != 3 || !kstrtou64(argv[1], &n) || !kstrtou64(argv[2], &size) || size == 0)
		return shell_usage(argv[0]);
	for (uint64_t i = 0; i < n; i++)
		kfree(kmalloc(size));
	return SHELL_OK;
}
SHELL_COMMAND(bench_kmem, cmd_bench_kmem, "bench_kmem N SIZE",
              "kmalloc and kfree SIZE bytes N times, quietly (tests/d/sdt)");
