/*
 * fbt_test.h - what fbt (trace/prov_fbt.c) offers its tests and benchmarks.
 *
 * Tests turn single probes on and off without a consumer, count what the
 * provider made of the kernel's functions, and check that every probe can
 * be armed at once.  Not for providers or consumers: they go through
 * trace/provider.h and trace/dtrace.h.  Thread context, not probe context.
 *
 * Tests: tests/kernel/prov_fbt_selftest.c, tests/kernel/prov_bench.c.
 */
#ifndef SONDE_FBT_TEST_H
#define SONDE_FBT_TEST_H

#include <stdbool.h>

#include "trace/dtrace.h"

/* What fbt made of the kernel's functions (docs/providers.md, the self-tests). */
struct fbt_stats {
	int fst_functions;           /* text symbols after the notrace region */
	int fst_probed;              /* with at least one probe */
	int fst_blocked;             /* excluded by name (fbt_blocklist, asm labels) */
	int fst_undecodable;         /* bytes the decoder refused */
	int fst_no_entry;            /* return probes only: first instruction not movable */
	int fst_probes;              /* probes created */
	int fst_sites;               /* patch points */
};

void fbt_stats_get(struct fbt_stats *out);
dtrace_id_t fbt_probe_id(const char *func, const char *name);   /* 0 if there is none */
int fbt_probe_set(dtrace_id_t id, bool on);                      /* arm or disarm one probe */
int fbt_set_all(bool on);                                        /* every probe at once */
int fbt_probe_unarm_stale(dtrace_id_t id);
int fbt_return_armed(void);                                      /* return sites armed, jump or trap */

#endif
