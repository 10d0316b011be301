/*
 * prov_sdt_selftest.c - in-kernel self-tests of sdt: every site is the
 * 5-byte NOP while disabled, names follow DTrace's convention ("__" -> "-"),
 * arguments arrive from whatever registers the compiler chose, 0 to 6 of them,
 * and several sites of one name in a function make one probe.  An
 * is-enabled test (SDT_ENABLED) is true exactly while a probe of its name
 * is enabled, through a consumer and through enable/disable churn with
 * every CPU running the guarded site.
 */
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"
#include "kernel/sdt.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"

#include "tests/kernel/prov_selftest.h"
#include "trace/provider.h"
#include "trace/sdt_test.h"

/* Sites with 0, 3 and 6 arguments, and one name used twice in a function. */
__attribute__((noipa)) long sdt_st_args(long a, long b, long c)
{
	long x = a * 2, y = b + 7, z = c ^ 5;

	DTRACE_PROBE(st__zero);
	DTRACE_PROBE3(st__three, a, y, z);
	DTRACE_PROBE6(st__six, x, y, z, a + 1, b + 1, c + 1);
	if (a > 10)                      /* different templates: gcc cannot merge them */
		DTRACE_PROBE1(st__twice, a);
	else
		DTRACE_PROBE2(st__twice, -a, b);
	return x + y + z;
}

/* A site behind its is-enabled test, and a second test of the same name (a record of its own). */
__attribute__((noipa)) long sdt_st_guarded(long a)
{
	if (SDT_ENABLED(st__guarded)) {
		DTRACE_PROBE1(st__guarded, a * 3);
		return 1;
	}
	return 0;
}

static __attribute__((noipa)) bool st_guarded_on(void)
{
	return SDT_ENABLED(st__guarded);
}

static void call_args(void *arg)
{
	long (*volatile fn)(long, long, long) = sdt_st_args;

	*(long *)arg += fn(1, 2, 3) + fn(20, 30, 40);
}

static void call_kmalloc(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10; i++)
		kfree(kmalloc(100));
}

SELFTEST(sdt_sites_are_nops)
{
	int sites, probes;

	sdt_count(&sites, &probes);
	ST_ASSERT(sites == __stop_sdt_sites - __start_sdt_sites);
	ST_ASSERT(probes > 10 && probes <= sites);
	for (const struct sdt_site *s = __start_sdt_sites; s < __stop_sdt_sites; s++)
		ST_ASSERT(sdt_isa_site_ok(s->ss_addr));       /* the machine's disabled site */
}

SELFTEST(sdt_names)
{
	ST_ASSERT(sdt_probe_id("sched_switch", "on-cpu") != 0);
	ST_ASSERT(sdt_probe_id("sched_switch", "off-cpu") != 0);
	ST_ASSERT(sdt_probe_id("kmalloc", "kmem-alloc") != 0);
	ST_ASSERT(sdt_probe_id("kfree", "kmem-free") != 0);
	ST_ASSERT(sdt_probe_id("sdt_st_args", "st-twice") != 0);
	ST_ASSERT(sdt_probe_id("sdt_st_args", "st__twice") == 0);
}

/* Enable and disable one probe with the sites armed as calls (call) or traps. */
static void enable_restores_nop(struct selftest_ctx *st_ctx, bool call)
{
	dtrace_id_t id = sdt_probe_id("sdt_st_args", "st-twice");
	long (*volatile fn)(long, long, long) = sdt_st_args;
	bool was = sdt_isa_call_on;
	int n = 0;

	sdt_isa_call_on = call;
	ST_ASSERT(sdt_probe_set(id, true) == 0);
	for (const struct sdt_site *s = __start_sdt_sites; s < __stop_sdt_sites; s++)
		n += !sdt_isa_site_ok(s->ss_addr);
	ST_ASSERT(n == 2);                          /* both sites of the one probe */
	ST_ASSERT(sdt_isa_call_sites() == (call && ARCH_SDT_CALL_PATH ? 2 : 0));   /* else both trap */
	ST_ASSERT(fn(1, 2, 3) == 2 + 9 + 6);
	ST_ASSERT(sdt_probe_set(id, false) == 0);
	sdt_isa_call_on = was;
	ST_ASSERT(sdt_isa_call_sites() == 0);
	for (const struct sdt_site *s = __start_sdt_sites; s < __stop_sdt_sites; s++)
		ST_ASSERT(sdt_isa_site_ok(s->ss_addr));       /* the machine's disabled site */
}

SELFTEST(sdt_enable_restores_nop)
{
	enable_restores_nop(st_ctx, false);
	enable_restores_nop(st_ctx, true);
}

/*
 * A probe without arguments is armed with the lean call (its trampoline
 * saves no register file: sdt_fire_noargs), one with arguments with the
 * full one; both fire (sdt_args_trap_and_call counts them).
 */
SELFTEST(sdt_noargs_lean_call)
{
	dtrace_id_t zero = sdt_probe_id("sdt_st_args", "st-zero");
	dtrace_id_t twice = sdt_probe_id("sdt_st_args", "st-twice");
	bool was = sdt_isa_call_on;
	int n = 0;

	sdt_isa_call_on = true;
	ST_ASSERT(zero != 0 && sdt_probe_set(zero, true) == 0);
	for (const struct sdt_site *s = __start_sdt_sites; s < __stop_sdt_sites; s++)
		n += !sdt_isa_site_ok(s->ss_addr);
	ST_ASSERT(n >= 1);
	ST_ASSERT(sdt_isa_call_noargs_sites() == (ARCH_SDT_CALL_PATH ? n : 0));
	ST_ASSERT(sdt_probe_set(twice, true) == 0);
	ST_ASSERT(sdt_isa_call_noargs_sites() == (ARCH_SDT_CALL_PATH ? n : 0));   /* st-twice: the full one */
	ST_ASSERT(sdt_isa_call_sites() == (ARCH_SDT_CALL_PATH ? n + 2 : 0));
	ST_ASSERT(sdt_probe_set(twice, false) == 0 && sdt_probe_set(zero, false) == 0);
	sdt_isa_call_on = was;
	ST_ASSERT(sdt_isa_call_noargs_sites() == 0 && sdt_isa_call_sites() == 0);
}

/* The same firings, arguments and sums through the trap and through the call. */
static void sdt_args_check(struct selftest_ctx *st_ctx, bool call)
{
	long sum = 0;
	bool was = sdt_isa_call_on;

	sdt_isa_call_on = call;
	ST_ASSERT(prov_st_count("sdt:::st-zero { @ = count(); }", call_args, &sum) == 2);
	ST_ASSERT(prov_st_count("sdt:::st-three /arg0 == 1 && arg1 == 9 && arg2 == 6/ "
	                        "{ @ = count(); }", call_args, &sum) == 1);
	ST_ASSERT(prov_st_count("sdt:::st-six /arg0 == 40 && arg1 == 37 && arg2 == 45 && "
	                        "arg3 == 21 && arg4 == 31 && arg5 == 41/ { @ = count(); }",
	                        call_args, &sum) == 1);
	ST_ASSERT(prov_st_count("sdt:::st-twice { @ = sum(arg0); }", call_args, &sum) == 19);
	ST_ASSERT(sum == 4 * (17 + (40 + 37 + 45)));
	sdt_isa_call_on = was;
}

SELFTEST(sdt_args_trap_and_call)
{
	sdt_args_check(st_ctx, false);
	sdt_args_check(st_ctx, true);
}

SELFTEST(sdt_kmem)
{
	ST_ASSERT(prov_st_count("sdt::kmalloc:kmem-alloc /arg1 == 100/ { @ = count(); }",
	                        call_kmalloc, NULL) == 10);
	ST_ASSERT(prov_st_count("sdt::kfree:kmem-free /arg1 == 128/ { @ = count(); }",
	                        call_kmalloc, NULL) == 10);
}

static void sleep_a_bit(void *arg)
{
	(void)arg;
	thread_sleep_ns(30 * 1000 * 1000);
}

SELFTEST(sdt_sched)
{
	ST_ASSERT(prov_st_count("sdt:::off-cpu { @ = count(); }", sleep_a_bit, NULL) >= 1);
	ST_ASSERT(prov_st_count("sdt:::on-cpu { @ = count(); }", sleep_a_bit, NULL) >= 1);
	ST_ASSERT(prov_st_count("sdt:::sleep { @ = count(); }", sleep_a_bit, NULL) >= 1);
	ST_ASSERT(prov_st_count("sdt:::wakeup { @ = count(); }", sleep_a_bit, NULL) >= 1);
}

/*
 * A zombie reaped by a dtrace consumer: the thread that runs after an
 * exiting one frees it (sched_finish), and when that thread is a consumer
 * (untraced) the free is still traced: it is the dead thread's business.
 * (It used to be hidden, so kmem-outstanding.d saw a stack never freed,
 * whenever the consumer happened to be the thread switched to.)
 */
struct reap_st {
	int cpu;
	volatile bool exited;
};

static void reap_st_exit(void *arg)
{
	struct reap_st *r = arg;

	thread_bind(r->cpu);                     /* exit on the consumer's CPU: it runs next */
	r->exited = true;
}

static void reap_by_consumer(void *arg)
{
	struct reap_st r = { .cpu = arch_cpu_id() };
	int bound = curthread()->t_bound;

	(void)arg;
	thread_bind(r.cpu);
	thread_set_untraced(true);
	if (thread_create("st-zombie", reap_st_exit, &r) != NULL) {
		while (!r.exited)
			thread_yield();
		for (int i = 0; i < 20; i++)
			thread_yield();          /* the zombie's switch lands in us, or in idle */
	}
	thread_set_untraced(false);
	thread_bind(bound);
}

SELFTEST(sdt_kmem_reaped_by_consumer)
{
	char src[128];

	ksnprintf(src, sizeof(src), "sdt::kfree:kmem-free /arg1 >= %d && tid == %lu/ { @ = count(); }",
	          THREAD_STACK_SIZE, curthread()->t_tid);
	ST_ASSERT(prov_st_count(src, reap_by_consumer, NULL) >= 1);
}

/* st_flags: the sum of st__guarded's is-enabled counts, and how many records it has. */
static uint32_t st_flags(int *records)
{
	uint32_t sum = 0;

	*records = 0;
	for (const struct sdt_flag *f = __start_sdt_flags; f < __stop_sdt_flags; f++) {
		if (strcmp(f->sf_name, "st__guarded") == 0) {
			sum += f->sf_on;
			(*records)++;
		}
	}
	return sum;
}

static void call_guarded(void *arg)
{
	long (*volatile fn)(long) = sdt_st_guarded;

	*(long *)arg += fn(5);
}

static volatile bool st_churn_stop;
static long st_hits[16];

/* churn_caller: run the guarded site until told to stop; a hit fires or does not, never faults. */
static void churn_caller(void *arg)
{
	long (*volatile fn)(long) = sdt_st_guarded;
	long *hits = arg;

	thread_bind((int)(hits - st_hits));
	while (!st_churn_stop) {
		for (int i = 0; i < 100; i++)
			*hits += fn(7);
		thread_yield();                  /* kernel threads are not preempted: let the toggler run */
	}
}

SELFTEST(sdt_enabled_flag)
{
	dtrace_id_t id = sdt_probe_id("sdt_st_guarded", "st-guarded");
	int records;
	long sum = 0;

	ST_ASSERT(id != 0);
	ST_ASSERT(st_flags(&records) == 0 && records == 2);
	ST_ASSERT(!st_guarded_on() && sdt_st_guarded(1) == 0);
	ST_ASSERT(sdt_probe_set(id, true) == 0);
	ST_ASSERT(st_flags(&records) == 2);              /* every record of the name: 1 */
	ST_ASSERT(st_guarded_on() && sdt_st_guarded(1) == 1);
	ST_ASSERT(sdt_probe_set(id, false) == 0);
	ST_ASSERT(st_flags(&records) == 0 && !st_guarded_on());
	/* Through a consumer: on while the program runs (the guarded site fires), off after. */
	ST_ASSERT(prov_st_count("sdt:::st-guarded /arg0 == 15/ { @ = count(); }", call_guarded, &sum) == 1);
	ST_ASSERT(sum == 1 && st_flags(&records) == 0);
	/* Churn: toggled many times while every CPU runs the site; ends off, the site a NOP again. */
	uint64_t tid[16];
	int n = MIN(ncpus, 16);
	st_churn_stop = false;
	for (int t = 0; t < n; t++) {
		st_hits[t] = 0;
		tid[t] = thread_spawn("st-sdtflag", churn_caller, &st_hits[t]);
	}
	for (int i = 0; i < 16; i++) {           /* each arm and disarm syncs every CPU: slow under TCG */
		ST_ASSERT(sdt_probe_set(id, true) == 0);
		ST_ASSERT(sdt_probe_set(id, false) == 0);
	}
	st_churn_stop = true;
	long hit = 0;
	for (int t = 0; t < n; t++) {
		if (tid[t] != 0)
			thread_join(tid[t]);
		hit += st_hits[t];
	}
	ST_ASSERT(n == 1 || hit > 0);                    /* the others ran the site meanwhile */
	ST_ASSERT(st_flags(&records) == 0 && !st_guarded_on() && sdt_st_guarded(1) == 0);
	for (const struct sdt_site *s = __start_sdt_sites; s < __stop_sdt_sites; s++)
		ST_ASSERT(sdt_isa_site_ok(s->ss_addr));
	/* fsinfo's path probes (kernel/syscall.c) are guarded the same way: all off here. */
	int fs = 0;
	for (const struct sdt_flag *f = __start_sdt_flags; f < __stop_sdt_flags; f++) {
		if (strncmp(f->sf_name, "fsinfo__", 8) == 0) {
			ST_ASSERT(f->sf_on == 0);
			fs++;
		}
	}
	ST_ASSERT(fs >= 6);
}
