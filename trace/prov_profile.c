/*
 * prov_profile.c - the profile provider: probes that fire on a timer.
 *
 *   profile:::profile-N   fires every 1/N s on every CPU (sampling)
 *   profile:::tick-N      fires every 1/N s on one CPU (periodic work)
 *
 * N is a number with an optional unit: ns (nsec), us (usec), ms (msec),
 * s (sec), m (min), h (hour), d (day) give the period; hz, or no unit, a
 * rate.  profile-997, tick-1s and tick-10ms all work.  Probes are made on
 * demand when a description names one (dtps_provide), plus DTrace's usual
 * set for listing.  arg0 is the kernel PC the timer interrupted (0 if user
 * mode was interrupted), arg1 the user PC (0 in the kernel); stack() starts
 * at the interrupted kernel code, and is empty for a sample of user code
 * (as in DTrace: ustack() has that one's frames).  When that code has no frame of its own there (a
 * frameless leaf such as the idle loop's sti; hlt, or a function in its
 * prologue or at its ret), prov_isa_intr_retslot() gives its return
 * address, so that its caller is not skipped by the frame walk.
 *
 * An enabled profile-N is one cyclic (kernel/time.h) per CPU, each started
 * on its CPU (cyclic_start_on) and calling profile_fire() from that CPU's
 * timer interrupt; an enabled tick-N is one cyclic, on the CPU that enabled
 * it.  As in DTrace, the provider refuses (silently) to make a probe whose
 * period is under 200 us (PROFILE_INTERVAL_MIN_NS, 5000 Hz): a faster
 * timer would keep a CPU fielding interrupts, so profile-10000 or tick-50us
 * matches no probe and its description fails to compile (D_PDESC_ZERO).
 *
 * Context: provide, enable, disable in thread context; profile_fire in
 * interrupt (probe) context.
 *
 * Tests: self-tests profile_* (tests/kernel/prov_profile_selftest.c);
 *        tests/d/profile
 */
#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/prov_isa.h"
#include "kernel/time.h"
#include "trace/profile_test.h"
#include "trace/provider.h"

struct profile_probe {
	struct cyclic pp_cyclic[MAX_CPUS]; /* profile-N: one per CPU; tick-N: [0] */
	uint64_t pp_period;          /* ns */
	dtrace_id_t pp_id;
	char pp_name[DTRACE_NAMELEN];
};

#define PROFILE_INTERVAL_MIN_NS (200 * NSEC_PER_USEC)   /* DTrace's limit: 5000 Hz */

static dtrace_provider_t *profile_prov;

static const char *const profile_defaults[] = {
	"profile-97", "profile-199", "profile-499", "profile-997", "profile-1999",
	"profile-4001", "profile-4999",
	"tick-1", "tick-10", "tick-100", "tick-500", "tick-1000", "tick-5000",
};

static const struct {
	const char *unit;
	uint64_t ns;                 /* period of one unit; 0: the number is a rate (hz) */
} profile_units[] = {
	{ "", 0 }, { "hz", 0 },
	{ "ns", 1 }, { "nsec", 1 },
	{ "us", NSEC_PER_USEC }, { "usec", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC }, { "msec", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC }, { "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC }, { "hour", 3600 * NSEC_PER_SEC },
	{ "d", 86400 * NSEC_PER_SEC }, { "day", 86400 * NSEC_PER_SEC },
};

/*
 * profile_period: the period in ns named by "profile-N" or "tick-N", or 0
 * if name is not one.
 */
uint64_t profile_period(const char *name)
{
	const char *p;
	uint64_t n = 0;

	if (strncmp(name, "profile-", 8) == 0)
		p = name + 8;
	else if (strncmp(name, "tick-", 5) == 0)
		p = name + 5;
	else
		return 0;
	if (*p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > UINT64_MAX / 10 - 10)
			return 0;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	for (size_t i = 0; i < ARRAY_SIZE(profile_units) && n != 0; i++) {
		if (strcmp(p, profile_units[i].unit) != 0)
			continue;
		if (profile_units[i].ns == 0)
			return n > NSEC_PER_SEC ? 1 : NSEC_PER_SEC / n;
		return n > UINT64_MAX / profile_units[i].ns ? 0 : n * profile_units[i].ns;
	}
	return 0;
}

static void profile_fire(void *arg)
{
	struct profile_probe *pp = arg;
	uint64_t pc, fp;
	bool user;

	/* Interrupts are off: cyclics run in the timer interrupt (kernel/cyclic.c). */
	prov_isa_intr_frame(&pc, &fp, &user);
	uint64_t args[6] = { user ? 0 : pc, user ? pc : 0 };
	if (user)                    /* a sample of user code: no kernel stack */
		dtrace_probe_user(pp->pp_id, arch_cpu_id(), args, pc);
	else
		dtrace_probe_frame(pp->pp_id, arch_cpu_id(), args, pc, fp, prov_isa_intr_retslot());
}

static void profile_make(const char *name)
{
	uint64_t period = profile_period(name);
	struct profile_probe *pp;

	if (period < PROFILE_INTERVAL_MIN_NS || dtrace_probe_lookup(profile_prov, "", "", name) != 0)
		return;                          /* not a profile name, too fast, or made already */
	if ((pp = kzalloc(sizeof(*pp))) == NULL)
		return;
	pp->pp_period = period;
	kstrlcpy(pp->pp_name, name, sizeof(pp->pp_name));
	pp->pp_id = dtrace_probe_create(profile_prov, "", "", name, 0, pp);
	if (pp->pp_id == 0)
		kfree(pp);
}

static bool profile_is_glob(const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '*' || *s == '?' || *s == '[' || *s == '\\')
			return true;
	}
	return false;
}

static void profile_provide(void *arg, const dtrace_probedesc_t *desc)
{
	(void)arg;
	for (size_t i = 0; i < ARRAY_SIZE(profile_defaults); i++)
		profile_make(profile_defaults[i]);
	if (desc != NULL && !profile_is_glob(desc->dpd_name))
		profile_make(desc->dpd_name);
}

static int profile_enable(void *arg, dtrace_id_t id, void *parg)
{
	struct profile_probe *pp = parg;

	(void)arg;
	(void)id;
	if (strncmp(pp->pp_name, "profile-", 8) != 0)    /* tick-N: this CPU only */
		return cyclic_start(&pp->pp_cyclic[0], pp->pp_period, 0, profile_fire, pp) ? 0 : -1;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (!cyclic_start_on(cpu, &pp->pp_cyclic[cpu], pp->pp_period, 0, profile_fire, pp)) {
			while (--cpu >= 0)               /* nothing stays enabled on failure */
				cyclic_stop(&pp->pp_cyclic[cpu]);
			return -1;
		}
	}
	return 0;
}

static void profile_disable(void *arg, dtrace_id_t id, void *parg)
{
	struct profile_probe *pp = parg;

	(void)arg;
	(void)id;
	for (int cpu = 0; cpu < MAX_CPUS; cpu++)
		cyclic_stop(&pp->pp_cyclic[cpu]);
}

static const dtrace_pops_t profile_pops = {
	.dtps_provide = profile_provide,
	.dtps_enable = profile_enable,
	.dtps_disable = profile_disable,
};

/* Stability: the profile provider's table in the Dynamic Tracing Guide. */
static const dtrace_pattr_t profile_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	.dtpa_mod = { DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	.dtpa_args = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
};

/* profile_init: register the provider.  Boot. */
void profile_init(void)
{
	profile_prov = dtrace_register("profile", &profile_pops, NULL);
	if (profile_prov == NULL)
		panic("profile_init: cannot register");
	dtrace_provider_attr_set(profile_prov, &profile_attr);
}
