/*
 * tests/fuzz/dof_fuzz.c: libFuzzer target for the kernel's DOF loader
 * (trace/dof.c), the boundary where the kernel takes a program from a
 * consumer it does not trust.
 *
 * Invariant: for any byte string, dof_load returns (accepting or refusing)
 * without a sanitizer report and without reading outside the input; it
 * refuses with a message; and a program it accepts, written again with
 * dt_dof_write and loaded again, is accepted again (what the kernel builds
 * is itself well-formed: no index out of range survives the load).
 *
 * Input: the DOF itself.  Seeds: tests/fuzz/dof_seed.c writes the DOF of
 * every D program of tests/d that compiles without the kernel (mk/fuzz.mk),
 * so mutations start from real files that pass every check.
 *
 * At exit it prints how many inputs it saw, how many were accepted, and the
 * refusals by reason (the message with its numbers taken out).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlang/dt_prog.h"
#include "trace/dof.h"

#define ARENA_MAX (64u << 20)
#define NREASONS 1024

static unsigned char *arena, *arena2, *again;
static unsigned long inputs, accepted, reloaded, nomsg;
static struct { char why[72]; unsigned long n; } reasons[NREASONS];
static unsigned nreasons;

/* reason_of: the message without numbers: "DOF: section N (DIF): alignment N ..." */
static void reason_count(const char *msg)
{
	char why[72];
	size_t k = 0;

	for (const char *p = msg; *p && k + 1 < sizeof(why); p++) {
		if (*p >= '0' && *p <= '9') {
			if (k == 0 || why[k - 1] != 'N')
				why[k++] = 'N';
			while (p[1] >= '0' && p[1] <= '9')
				p++;
		} else if (*p == '"') {
			break;
		} else {
			why[k++] = *p;
		}
	}
	why[k] = 0;
	for (unsigned i = 0; i < nreasons; i++)
		if (strcmp(reasons[i].why, why) == 0) {
			reasons[i].n++;
			return;
		}
	if (nreasons < NREASONS) {
		memcpy(reasons[nreasons].why, why, k + 1);
		reasons[nreasons++].n = 1;
	}
}

static void stats_print(void)
{
	fprintf(stderr, "dof_fuzz: %lu inputs, %lu accepted (%lu reloaded), %lu refused without a "
	        "message\n", inputs, accepted, reloaded, nomsg);
	for (unsigned i = 0; i < nreasons; i++)
		fprintf(stderr, "dof_fuzz: refused %8lu  %s\n", reasons[i].n, reasons[i].why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	dt_prog *p;
	size_t asz = dof_arena_size(size);

	if (arena == NULL) {
		arena = malloc(ARENA_MAX);
		arena2 = malloc(ARENA_MAX);
		again = malloc(ARENA_MAX);
		atexit(stats_print);
	}
	if (asz > ARENA_MAX)
		return 0;
	inputs++;
	/* a copy of exactly size bytes, so that ASan sees any read past the end */
	unsigned char *buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	int rc = dof_load(buf, size, arena, asz, &p, err, sizeof(err));
	free(buf);
	if (rc != 0) {
		if (err[0] == 0) {
			nomsg++;
			abort();                    /* every refusal names its reason */
		}
		reason_count(err);
		return 0;
	}
	accepted++;
	size_t n = dt_dof_write(p, NULL, 0);
	if (n <= ARENA_MAX && dof_arena_size(n) <= ARENA_MAX) {
		dt_dof_write(p, again, n);
		dt_prog *q;
		if (dof_load(again, n, arena2, dof_arena_size(n), &q, err, sizeof(err)) != 0) {
			fprintf(stderr, "dof_fuzz: an accepted program, rewritten, is refused: %s\n", err);
			abort();
		}
		reloaded++;
	}
	return 0;
}
