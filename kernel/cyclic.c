/*
 * cyclic.c - the cyclic facility: handlers at arbitrary periods.
 *
 * In the spirit of Solaris cyclics.  Pending cyclics sit on one list sorted
 * by expiry; the LAPIC timer (arch_timer_oneshot) is always programmed for
 * the head.  timer_interrupt() runs every cyclic whose time has come, re-arms
 * the periodic ones (skipping missed periods rather than firing in a burst),
 * and programs the timer again.  Handlers run in the interrupt with
 * interrupts off, without the list lock held, so they may start and stop
 * cyclics themselves.
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/sdt.h"
#include "kernel/time.h"

static struct cyclic *pending;
static spinlock_t cyclic_lock = SPINLOCK_INIT("cyclic");

uint64_t ktime_ns(void)
{
	return arch_time_ns();
}

static void cyclic_insert(struct cyclic *cy)
{
	struct cyclic **pp = &pending;

	while (*pp != NULL && (*pp)->cy_expire <= cy->cy_expire)
		pp = &(*pp)->cy_next;
	cy->cy_next = *pp;
	*pp = cy;
	cy->cy_pending = true;
}

static void cyclic_unlink(struct cyclic *cy)
{
	for (struct cyclic **pp = &pending; *pp != NULL; pp = &(*pp)->cy_next) {
		if (*pp == cy) {
			*pp = cy->cy_next;
			break;
		}
	}
	cy->cy_pending = false;
}

/* timer_program: arm the hardware for the head of the list.  Lock held. */
static void timer_program(uint64_t now)
{
	if (pending == NULL)
		return;
	uint64_t delta = pending->cy_expire > now ? pending->cy_expire - now : 0;
	arch_timer_oneshot(MAX(delta, 1000));
}

bool cyclic_start(struct cyclic *cy, uint64_t period_ns, uint64_t delay_ns,
                  cyclic_fn_t *fn, void *arg)
{
	if (period_ns != 0 && period_ns < CYCLIC_MIN_PERIOD_NS)
		return false;
	spin_lock(&cyclic_lock);
	if (cy->cy_pending)
		cyclic_unlink(cy);
	uint64_t now = ktime_ns();
	cy->cy_period = period_ns;
	cy->cy_expire = now + (period_ns != 0 && delay_ns == 0 ? period_ns : delay_ns);
	cy->cy_fn = fn;
	cy->cy_arg = arg;
	cy->cy_fired = 0;
	cyclic_insert(cy);
	if (pending == cy)
		timer_program(now);
	spin_unlock(&cyclic_lock);
	return true;
}

void cyclic_stop(struct cyclic *cy)
{
	spin_lock(&cyclic_lock);
	if (cy->cy_pending)
		cyclic_unlink(cy);
	spin_unlock(&cyclic_lock);
}

/* Called by the timer interrupt (interrupts off). */
void timer_interrupt(void)
{
	uint64_t now = ktime_ns();
	int budget = 64;                        /* bound the work of one interrupt */

	spin_lock(&cyclic_lock);
	while (pending != NULL && pending->cy_expire <= now && budget-- > 0) {
		struct cyclic *cy = pending;
		cyclic_unlink(cy);
		cy->cy_fired++;
		if (cy->cy_period != 0) {
			cy->cy_expire += cy->cy_period;
			if (cy->cy_expire <= now)       /* missed periods: skip them */
				cy->cy_expire = now + cy->cy_period;
			cyclic_insert(cy);
		}
		spin_release_raw(&cyclic_lock);
		DTRACE_PROBE2(cyclic__fire, cy, cy->cy_fn);
		cy->cy_fn(cy->cy_arg);
		spin_acquire_raw(&cyclic_lock);
		now = ktime_ns();
	}
	timer_program(now);
	spin_unlock(&cyclic_lock);
}
