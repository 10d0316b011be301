/*
 * sdt_test.h - what sdt (trace/prov_sdt.c) offers its tests and benchmarks.
 *
 * Tests find a probe by function and name and arm it without a consumer,
 * and count the sites and probes the provider made from the sdt_sites
 * section.  Thread context, not probe context.
 *
 * Tests: tests/kernel/prov_sdt_selftest.c, tests/kernel/prov_bench.c.
 */
#ifndef SONDE_SDT_TEST_H
#define SONDE_SDT_TEST_H

#include <stdbool.h>

#include "kernel/sdt.h"
#include "trace/dtrace.h"

dtrace_id_t sdt_probe_id(const char *func, const char *name);   /* 0 if there is none */
int sdt_probe_set(dtrace_id_t id, bool on);
void sdt_count(int *sites, int *probes);

/* The sites the linker collected (kernel/sdt.h's SDT_PROBE). */
extern const struct sdt_site __start_sdt_sites[], __stop_sdt_sites[];
/* The is-enabled records (kernel/sdt.h's SDT_ENABLED), written by prov_sdt.c. */
extern struct sdt_flag __start_sdt_flags[], __stop_sdt_flags[];

#endif
