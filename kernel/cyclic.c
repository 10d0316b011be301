/*
 * cyclic.c - the cyclic facility: handlers at arbitrary periods.
 *
 * In the spirit of Solaris cyclics.  Each CPU keeps its pending cyclics on
 * a list sorted by expiry, and its LAPIC timer (arch_timer_oneshot) is
 * always programmed for the head.  timer_interrupt() runs every cyclic of
 * its CPU whose time has come, re-arms the periodic ones (skipping missed
 * periods rather than firing in a burst), and programs the timer again.
 * Handlers run in the interrupt with interrupts off, without the list lock
 * held, so they may start and stop cyclics themselves.  A cyclic lives on
 * the CPU that started it; cyclic_start_on() puts one on another CPU by
 * cross-call (the profile provider's profile-N runs one on every CPU).
 *
 * Tests: self-tests cyclic_fires_and_stops, profile_tick_rate; tests/d/profile
 */
#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/sdt.h"
#include "kernel/time.h"
#include "kernel/xcall.h"

uint64_t ktime_ns(void)
{
	return arch_time_ns();
}

uint64_t ktime_boot_wall_ns;

void walltime_init(void)
{
	uint64_t now = ktime_ns(), secs = arch_rtc_seconds();

	ktime_boot_wall_ns = secs != 0 ? secs * NSEC_PER_SEC - now : 0;
}

static void cyclic_insert(struct cpu *c, struct cyclic *cy)
{
	struct cyclic **pp = &c->cpu_cyclics;

	while (*pp != NULL && (*pp)->cy_expire <= cy->cy_expire)
		pp = &(*pp)->cy_next;
	cy->cy_next = *pp;
	*pp = cy;
	cy->cy_pending = true;
}

static void cyclic_unlink(struct cpu *c, struct cyclic *cy)
{
	for (struct cyclic **pp = &c->cpu_cyclics; *pp != NULL; pp = &(*pp)->cy_next) {
		if (*pp == cy) {
			*pp = cy->cy_next;
			break;
		}
	}
	cy->cy_pending = false;
}

/* timer_program: arm this CPU's timer for the head of its list.  Lock held. */
static void timer_program(struct cpu *c, uint64_t now)
{
	if (c->cpu_cyclics == NULL)
		return;
	uint64_t delta = c->cpu_cyclics->cy_expire > now ? c->cpu_cyclics->cy_expire - now : 0;
	arch_timer_oneshot(MAX(delta, 1000));
}

/* cyclic_add_local: (re)start cy on this CPU.  Interrupts off. */
static void cyclic_add_local(struct cyclic *cy)
{
	struct cpu *c = curcpu();

	spin_lock(&c->cpu_cyclic_lock);
	uint64_t now = ktime_ns();
	cy->cy_cpu = c->cpu_id;
	cy->cy_expire = now + cy->cy_expire;        /* cy_expire held the delay */
	cyclic_insert(c, cy);
	if (c->cpu_cyclics == cy)
		timer_program(c, now);
	spin_unlock(&c->cpu_cyclic_lock);
}

static void cyclic_add_xcall(void *arg)
{
	cyclic_add_local(arg);
}

bool cyclic_start_on(int cpu, struct cyclic *cy, uint64_t period_ns, uint64_t delay_ns,
                     cyclic_fn_t *fn, void *arg)
{
	if (period_ns != 0 && period_ns < CYCLIC_MIN_PERIOD_NS)
		return false;
	cyclic_stop(cy);
	cy->cy_period = period_ns;
	cy->cy_expire = period_ns != 0 && delay_ns == 0 ? period_ns : delay_ns;
	cy->cy_fn = fn;
	cy->cy_arg = arg;
	cy->cy_fired = 0;
	if (cpu == arch_cpu_id()) {
		uint64_t flags = arch_irq_save();
		cyclic_add_local(cy);
		arch_irq_restore(flags);
	} else {
		xcall(cpu, cyclic_add_xcall, cy);
	}
	return true;
}

bool cyclic_start(struct cyclic *cy, uint64_t period_ns, uint64_t delay_ns,
                  cyclic_fn_t *fn, void *arg)
{
	uint64_t flags = arch_irq_save();           /* stay on this CPU */
	bool ok = cyclic_start_on(arch_cpu_id(), cy, period_ns, delay_ns, fn, arg);

	arch_irq_restore(flags);
	return ok;
}

void cyclic_stop(struct cyclic *cy)
{
	struct cpu *c = &cpus[cy->cy_cpu];

	spin_lock(&c->cpu_cyclic_lock);
	if (cy->cy_pending)
		cyclic_unlink(c, cy);
	spin_unlock(&c->cpu_cyclic_lock);
	/* A handler may itself wait for a cross-call (the dynamic-variable
	 * cleaner's dtrace_sync), so answer ours while waiting for it. */
	if (cy->cy_cpu != arch_cpu_id())
		while (__atomic_load_n(&cy->cy_running, __ATOMIC_ACQUIRE)) {
			xcall_poll();
			arch_cpu_relax();
		}
}

/* Called by the timer interrupt (interrupts off). */
void timer_interrupt(void)
{
	struct cpu *c = curcpu();
	uint64_t now = ktime_ns();
	int budget = 64;                        /* bound the work of one interrupt */

	spin_lock(&c->cpu_cyclic_lock);
	while (c->cpu_cyclics != NULL && c->cpu_cyclics->cy_expire <= now && budget-- > 0) {
		struct cyclic *cy = c->cpu_cyclics;
		cyclic_unlink(c, cy);
		cy->cy_fired++;
		if (cy->cy_period != 0) {
			cy->cy_expire += cy->cy_period;
			if (cy->cy_expire <= now)       /* missed periods: skip them */
				cy->cy_expire = now + cy->cy_period;
			cyclic_insert(c, cy);
		}
		cy->cy_running = true;
		spin_release_raw(&c->cpu_cyclic_lock);
		DTRACE_PROBE2(cyclic__fire, cy, cy->cy_fn);
		cy->cy_fn(cy->cy_arg);
		__atomic_store_n(&cy->cy_running, false, __ATOMIC_RELEASE);
		spin_acquire_raw(&c->cpu_cyclic_lock);
		now = ktime_ns();
	}
	timer_program(c, now);
	spin_unlock(&c->cpu_cyclic_lock);
}
