/*
 * tests/fuzz/dif_seed.c: make dif_fuzz's seed corpus from the tree.
 *
 *   dif_seed OUTDIR FILE...
 *
 * A FILE ending in .dift is a DIF vector (tests/dif): its "-- asm" section
 * is assembled. Any other FILE is D source (tests/d, scripts): it is
 * compiled as the guest compiles it (with -w, so destructive clauses
 * compile too) and every DIFO of the program is taken. Each DIFO that fits
 * dif_fuzz's input layout (see dif_fuzz.c: at most 15 integers, 7
 * variables, 255 bytes of strings, 256 instructions) is written to
 * OUTDIR/seed-N with flags that make the fuzzer run it unrepaired, as it
 * is: destructive and user allowed, its return type kept. These seeds are
 * programs that pass validation and reach the interpreter and the
 * subroutines with well-typed arguments, which random bytes rarely do; the
 * mutator then works from them. Files that do not assemble or compile are
 * skipped (the err.* tests of tests/d are meant not to).
 *
 * Host tool, built at build time (dif.mk); the corpus lives in build/.
 */
#include "dif/dif.h"
#include "dlang/dt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_SIZE (4u << 20)

static const char *outdir;
static unsigned nseeds;

/* seed_write: one DIFO in dif_fuzz's layout, or nothing if it does not fit. */
static void seed_write(const dif_difo_t *d)
{
	char path[4096];
	uint8_t flags = 2 | 4;          /* no repair; destructive; user */
	FILE *f;

	if (d == NULL || d->dd_nints > 15 || d->dd_nvars > 7 || d->dd_strlen > 255 ||
	    d->dd_ninsns > 256)
		return;
	if (d->dd_rtype.dt_kind == DIF_TYPE_STRING)
		flags |= 32;
	snprintf(path, sizeof(path), "%s/seed-%u", outdir, nseeds++);
	f = fopen(path, "wb");
	if (f == NULL) {
		perror(path);
		exit(1);
	}
	uint8_t hdr[4] = { flags, (uint8_t)d->dd_nints, (uint8_t)d->dd_nvars,
	                   (uint8_t)d->dd_strlen };
	fwrite(hdr, 1, 4, f);
	fwrite(d->dd_inttab, 8, d->dd_nints, f);
	fwrite(d->dd_vartab, sizeof(dif_var_t), d->dd_nvars, f);
	fwrite(d->dd_strtab, 1, d->dd_strlen, f);
	fwrite(d->dd_insns, 4, d->dd_ninsns, f);
	fclose(f);
}

static char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(*len + 1);
	if (fread(buf, 1, *len, f) != *len)
		*len = 0;
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* seed_dift: the "-- asm" section of a vector, up to the next "-- " line. */
static void seed_dift(char *text)
{
	static dif_instr_t insns[4096];
	static uint64_t ints[256];
	static char strs[8192];
	static dif_var_t vars[64];
	dif_asmbuf_t ab = { insns, 4096, ints, 256, strs, sizeof(strs), vars, 64 };
	dif_difo_t d;
	char err[128];
	char *asm_ = strstr(text, "-- asm\n"), *end;

	if (asm_ == NULL)
		return;
	asm_ += strlen("-- asm\n");
	end = strstr(asm_, "\n-- ");
	if (dif_asm(asm_, end ? (size_t)(end - asm_) + 1 : strlen(asm_), &ab, &d, err,
	            sizeof(err)) == 0)
		seed_write(&d);
}

static void seed_d(const char *src, size_t len)
{
	static void *arena;
	static const char *const argv[] = { "seed.d", "1", "foo", "0x10" };
	dt_opts o = { .o_destructive = true, .o_argv = argv, .o_argc = 4, .o_target = 1234 };
	dt_prog *p;
	dt_error err;

	if (arena == NULL)
		arena = malloc(ARENA_SIZE);
	if (dt_compile(src, len, &o, arena, ARENA_SIZE, &p, &err) != 0)
		return;
	for (uint32_t c = 0; c < p->dp_nclauses; c++) {
		const dt_clause *cl = &p->dp_clauses[c];
		seed_write(cl->cl_pred);
		for (uint32_t a = 0; a < cl->cl_nacts; a++)
			for (uint32_t i = 0; i < cl->cl_acts[a].ac_nargs; i++)
				seed_write(cl->cl_acts[a].ac_args[i]);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: dif_seed OUTDIR FILE...\n");
		return 2;
	}
	outdir = argv[1];
	for (int i = 2; i < argc; i++) {
		size_t len, n = strlen(argv[i]);
		char *text = file_read(argv[i], &len);
		if (text == NULL)
			continue;
		if (n > 5 && strcmp(argv[i] + n - 5, ".dift") == 0)
			seed_dift(text);
		else
			seed_d(text, len);
		free(text);
	}
	printf("dif_seed: %u seeds in %s\n", nseeds, outdir);
	return 0;
}
