/*
 * tests/fuzz/dt_fuzz.c: libFuzzer target for the D compiler.
 *
 * Each input is D source text, compiled with dt_compile() exactly as the
 * guest does (a fixed arena, macro arguments $1..$3, $target).  A compile
 * error is a normal outcome; a crash, a sanitizer report, a read past the
 * input (the input is not NUL-terminated) or a DIFO that fails
 * dif_validate() is a finding.  Successful programs are walked and every
 * DIFO disassembled, to exercise the program object.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dlang/dt.h"

#define ARENA_SIZE (4u << 20)

static void
check_difo(const dif_difo_t *d)
{
	static char buf[1 << 16];
	if (d == NULL)
		return;
	if (dif_validate(d, DIF_VF_DESTRUCTIVE | DIF_VF_USER, NULL, NULL) != 0)
		abort();
	dif_disasm(d, buf, sizeof (buf));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static void *arena;
	static const char *const argv[] = { "fuzz.d", "1", "foo", "0x10" };
	if (arena == NULL)
		arena = malloc(ARENA_SIZE);
	/* copy into an exact-size buffer so ASan catches reads past the end */
	char *src = malloc(size == 0 ? 1 : size);
	memcpy(src, data, size);
	dt_opts o;
	memset(&o, 0, sizeof (o));
	o.o_argv = argv;
	o.o_argc = 4;
	o.o_target = 1234;
	o.o_destructive = size > 0 && (data[0] & 1);
	dt_prog *p;
	dt_error err;
	if (dt_compile(src, size, &o, arena, ARENA_SIZE, &p, &err) == 0) {
		for (uint32_t c = 0; c < p->dp_nclauses; c++) {
			const dt_clause *cl = &p->dp_clauses[c];
			check_difo(cl->cl_pred);
			for (uint32_t a = 0; a < cl->cl_nacts; a++)
				for (uint32_t i = 0; i < cl->cl_acts[a].ac_nargs; i++)
					check_difo(cl->cl_acts[a].ac_args[i]);
		}
	} else {
		char msg[1024];
		if (err.de_tag == NULL)
			abort();
		dt_error_format(&err, true, msg, sizeof (msg));
	}
	free(src);
	return (0);
}
