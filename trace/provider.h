/*
 * provider.h - the interface between the tracing framework and providers.
 *
 * A provider (trace/prov_<name>.c) registers once at boot with an ops table
 * and creates probes, each named provider:module:function:name and given a
 * small integer id (dtrace_id_t, from 1).  Creating a probe costs nothing at
 * run time; the framework calls ops->enable when the first consumer enables
 * it and ops->disable when the last one goes away.  While enabled, the
 * provider's instrumentation calls dtrace_probe(id, arg0..arg5) from probe
 * context, or, from a trap or an interrupt handler, dtrace_probe_frame(),
 * which also says where the probed code's stack starts.
 *
 * Probe context: interrupts are off; code must not sleep, allocate, take a
 * lock that other code takes with interrupts on, or call anything that can be
 * instrumented.  Code that can run in probe context is kept out of fbt's
 * reach: whole directories by the linker script (dif/, trace/, the trap
 * path), single functions with NOTRACE (kernel/klib.h).
 */
#ifndef SONDE_TRACE_PROVIDER_H
#define SONDE_TRACE_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * dtrace_addr_hash: the bucket of a code address in a table of 2^bits (a
 * provider's site lookup at a probe hit: fbt, sdt, pid).  Probe context.
 */
static inline uint32_t dtrace_addr_hash(uint64_t addr, unsigned bits)
{
	return (uint32_t)((addr * 0x9e3779b97f4a7c15UL) >> (64 - bits));
}

typedef uint32_t dtrace_id_t;            /* probe id; 0 = none */
typedef struct dtrace_provider dtrace_provider_t;

#define DTRACE_PROVNAMELEN  64
#define DTRACE_MODNAMELEN   64
#define DTRACE_FUNCNAMELEN  128
#define DTRACE_NAMELEN      64

/* A probe description: four glob patterns ("" matches anything). */
typedef struct dtrace_probedesc {
	char dpd_provider[DTRACE_PROVNAMELEN];
	char dpd_mod[DTRACE_MODNAMELEN];
	char dpd_func[DTRACE_FUNCNAMELEN];
	char dpd_name[DTRACE_NAMELEN];
	dtrace_id_t dpd_id;                  /* nonzero: only this probe id */
} dtrace_probedesc_t;

/* dtrace_glob_match: does s match the glob pattern p (* ? [...] \)?  Pure; "" matches all. */
bool dtrace_glob_match(const char *p, const char *s);

/*
 * Provider operations.  `arg` is the provider's own pointer given to
 * dtrace_register; `parg` the probe's, given to dtrace_probe_create.
 *
 * dtps_provide  create the probes that match desc (NULL: all the provider
 *               has); called before matching and listing.  Probes that exist
 *               already must not be created again.  Thread context; may
 *               allocate.  Optional (providers that create everything at
 *               registration leave it NULL).
 * dtps_enable   start firing probe id (patch text, start a cyclic...).
 *               Returns 0 or a negative error.  Thread context, framework lock held.
 * dtps_disable  stop firing it; after return no new firing starts.  Thread context.
 * dtps_getargval  the value of argument argno (>= 6, or any the provider
 *               computes lazily).  Probe context.  Optional: NULL gives 0.
 * dtps_destroy  the probe is going away: free parg.  Optional.
 * dtps_getargdesc  describe argument argno of the probe pd names into *ad
 *               (zeroed by the caller): its type as C names it ("struct
 *               thread *"), and for an argument D sees translated (sched's
 *               lwpsinfo_t *), that type and the native argument it is
 *               translated from.  0, or -1 if it has none (nor any argument
 *               after it).  dtrace -lv and the compiler's typed args[] ask
 *               it.  Thread context, framework lock held.  Optional: NULL
 *               types nothing.
 */
#define DTRACE_ARGDESCLEN 64
typedef struct dtrace_argdesc {
	char dad_native[DTRACE_ARGDESCLEN];  /* the argument's own type */
	char dad_xlate[DTRACE_ARGDESCLEN];   /* D's type, translated from native ("": none) */
	int dad_mapping;                     /* the native argument (arg0..) it comes from */
} dtrace_argdesc_t;
typedef struct dtrace_pops {
	void (*dtps_provide)(void *arg, const dtrace_probedesc_t *desc);
	int (*dtps_enable)(void *arg, dtrace_id_t id, void *parg);
	void (*dtps_disable)(void *arg, dtrace_id_t id, void *parg);
	uint64_t (*dtps_getargval)(void *arg, dtrace_id_t id, void *parg, int argno);
	void (*dtps_destroy)(void *arg, dtrace_id_t id, void *parg);
	int (*dtps_getargdesc)(void *arg, const dtrace_probedesc_t *pd, void *parg,
	                       int argno, dtrace_argdesc_t *ad);
} dtrace_pops_t;

/*
 * Stability (the Dynamic Tracing Guide's "Stability" chapter): each
 * interface has a name stability, a data stability and a dependency class,
 * each from lowest to highest.  A provider states them for the five parts
 * of its probes: provider, module, function and name, and the arguments.
 */
enum dtrace_stability {
	DTRACE_STABILITY_INTERNAL = 0, DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_OBSOLETE,
	DTRACE_STABILITY_EXTERNAL, DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_EVOLVING,
	DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STANDARD,
};
enum dtrace_class {
	DTRACE_CLASS_UNKNOWN = 0, DTRACE_CLASS_CPU, DTRACE_CLASS_PLATFORM, DTRACE_CLASS_GROUP,
	DTRACE_CLASS_ISA, DTRACE_CLASS_COMMON,
};
typedef struct dtrace_attribute {
	uint8_t dtat_name;                   /* enum dtrace_stability */
	uint8_t dtat_data;                   /* enum dtrace_stability */
	uint8_t dtat_class;                  /* enum dtrace_class */
} dtrace_attribute_t;
typedef struct dtrace_pattr {
	dtrace_attribute_t dtpa_provider, dtpa_mod, dtpa_func, dtpa_name, dtpa_args;
} dtrace_pattr_t;

/*
 * dtrace_provider_attr_set: prov's probes have these attributes (the table
 * in the provider's chapter of the Guide).  A provider that never says is
 * Private/Private/Unknown throughout.  Thread context (boot).
 */
void dtrace_provider_attr_set(dtrace_provider_t *prov, const dtrace_pattr_t *attr);

/*
 * dtrace_provider_aout_set: a description's module "a.out" also matches
 * prov's probes, whose module is a process's executable (pid and USDT
 * providers, as DTrace lets pid$target:a.out:main:entry name the program
 * whatever it is called).  Thread context.
 */
void dtrace_provider_aout_set(dtrace_provider_t *prov);

/*
 * dtrace_register: add a provider called name.  Returns it, or NULL if the
 * name is taken or memory is short.  Thread context (boot).
 */
dtrace_provider_t *dtrace_register(const char *name, const dtrace_pops_t *ops, void *arg);

/*
 * dtrace_probe_create: a new probe of prov; returns its id, or 0 if memory
 * is short or the name exists.  aframes: frames to leave out of the top
 * of stack() so that it starts at the probed code's caller (fbt: 1, the
 * probed function).  A provider that fires with dtrace_probe() adds none:
 * its stub lives in trace/, whose frames stack() never shows, and the
 * kernel code calls it through a hook that is always inlined.  Thread context.
 */
dtrace_id_t dtrace_probe_create(dtrace_provider_t *prov, const char *mod, const char *func,
                                const char *name, int aframes, void *parg);

/* dtrace_probe_lookup: the id of prov's probe mod:func:name, or 0.  Thread context. */
dtrace_id_t dtrace_probe_lookup(dtrace_provider_t *prov, const char *mod, const char *func,
                                const char *name);

/*
 * dtrace_probe_retire: probe id goes away (the pid provider's, when its
 * process has exited or exec'd): it no longer matches or lists, and its
 * name may be made again.  Its id and its enablings stay until their
 * consumers end (its provider then ignores enable and disable).  Thread
 * context, dtrace_lock held (as in dtps_provide).
 */
void dtrace_probe_retire(dtrace_id_t id);

/* dtrace_probe_arg: the parg of probe id (NULL if none).  Any context. */
void *dtrace_probe_arg(dtrace_id_t id);

/*
 * dtrace_probe: the probe fired.  Runs every enabled clause of every
 * consumer on it.  stack() starts at the first frame of this call chain
 * outside the framework's text (dif/, trace/): the kernel code that called
 * the provider's stub.  Probe context (the caller has interrupts off or lets
 * dtrace_probe turn them off); re-entry on the same CPU is refused and
 * counted.
 */
void dtrace_probe(dtrace_id_t id, uint64_t arg0, uint64_t arg1, uint64_t arg2,
                  uint64_t arg3, uint64_t arg4, uint64_t arg5);

/*
 * dtrace_probe_frame: dtrace_probe for providers that fire from a trap or an
 * interrupt handler, where interrupts are already off.  cpu is this CPU's
 * index (the trap code has it at hand), args the six arguments.  stack() and
 * caller start at the probed code rather than inside the trap handler: at pc,
 * in the frame fp; when the probe is at a function boundary, where the probed
 * function has no frame of its own, retslot is the stack slot holding its
 * return address (the caller's PC comes next), and NULL elsewhere.  pc 0 means
 * no such frame: stack() walks from here, as for dtrace_probe.  pc is a
 * kernel address: probes in user code (and profile samples of it) fire with
 * dtrace_probe_user.  Probe
 * context.
 */
void dtrace_probe_frame(dtrace_id_t id, int cpu, const uint64_t args[6], uint64_t pc, uint64_t fp,
                        const uint64_t *retslot);
/*
 * dtrace_probe_user: dtrace_probe_frame for a probe in user code at upc (the
 * pid provider's, a profile sample of user mode): stack() is empty and caller 0, as in DTrace.  (An address
 * alone cannot say: a machine may put the kernel's image low in the address
 * space.)  Probe context.
 */
void dtrace_probe_user(dtrace_id_t id, int cpu, const uint64_t args[6], uint64_t upc);

/*
 * dtrace_sync: returns once no CPU is still inside a firing (dtrace_probe or
 * dtrace_probe_frame) that began before the call, and every firing that
 * begins afterwards sees the stores made before the call.  Call it after
 * making something unreachable from probe context (an ECB unlinked, a
 * provider's per-probe data detached) and before freeing it, and after a
 * state change that no firing may straddle.  A cross-call to every CPU,
 * answered outside probe context.  Context: thread context, or a cyclic
 * handler (the dynamic-variable cleaner), never probe context, holding no
 * spinlock that another CPU may spin on with interrupts off; it may wait a
 * while (each CPU answers when it next has interrupts on, or while it waits
 * itself: xcall's and cyclic_stop's wait loops answer cross-calls).
 */
void dtrace_sync(void);

/*
 * dtrace_provide_meta: a provider class that registers providers on demand
 * (pid: pid123 once a description names it) sets this at boot; every match
 * and listing calls it with the description first (NULL: list all).
 * Thread context, dtrace_lock held: it may call dtrace_register.
 */
extern void (*dtrace_provide_meta)(const dtrace_probedesc_t *d);

#endif
