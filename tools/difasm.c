/*
 * tools/difasm.c: assemble and disassemble DIF on the host.
 *
 *   difasm [-o OUT.difo] IN        assemble IN (text, or the "-- asm"
 *                                  section of a .dift vector) to a binary
 *                                  DIFO file (default: stdout)
 *   difasm -d IN.difo              disassemble a binary DIFO to stdout
 *   difasm -c IN                   round trip check: assemble, disassemble,
 *                                  reassemble; exit 1 unless bit-exact
 *   difasm -V IN                   assemble and validate; print problems
 *   difasm -l                      list the instruction set
 *
 * The binary format is this tool's own (the kernel receives DIFOs through
 * the consumer interface, not as files): "DIFO", u32 version 1, u32
 * ninsns, nints, strlen, nvars, the 8-byte return type, then the four
 * tables in that order, host byte order.
 */
#include "dif/dif.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP_INSNS 65536
#define CAP_INTS  65536
#define CAP_STRS  65536
#define CAP_VARS  4096

struct buf {
	dif_instr_t insns[CAP_INSNS];
	uint64_t ints[CAP_INTS];
	char strs[CAP_STRS];
	dif_var_t vars[CAP_VARS];
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 4096, n = 0, r;
	char *b = malloc(cap);

	if (f == NULL) {
		perror(path);
		exit(2);
	}
	while ((r = fread(b + n, 1, cap - n - 1, f)) > 0)
		if ((n += r) + 1 >= cap)
			b = realloc(b, cap *= 2);
	b[n] = '\0';
	if (f != stdin)
		fclose(f);
	*len = n;
	return b;
}

/* The "-- asm" section of a vector, or the whole text. */
static const char *asm_text(const char *text, size_t *len)
{
	const char *s = strstr(text, "-- asm\n"), *e;

	if (s == NULL)
		return text;
	s += 7;
	e = strstr(s, "\n-- ");
	*len = e ? (size_t)(e - s) + 1 : strlen(s);
	return s;
}

static void assemble(const char *path, struct buf *b, dif_difo_t *dp)
{
	dif_asmbuf_t ab = { b->insns, CAP_INSNS, b->ints, CAP_INTS, b->strs,
	                    CAP_STRS, b->vars, CAP_VARS };
	size_t len;
	char *text = slurp(path, &len), err[256];
	const char *src = asm_text(text, &len);

	if (dif_asm(src, len, &ab, dp, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", path, err);
		exit(1);
	}
	free(text);
}

static void write_difo(const char *path, const dif_difo_t *dp)
{
	FILE *f = path ? fopen(path, "wb") : stdout;
	uint32_t hdr[5] = { 1, dp->dd_ninsns, dp->dd_nints, dp->dd_strlen,
	                    dp->dd_nvars };

	if (f == NULL) {
		perror(path);
		exit(2);
	}
	fwrite("DIFO", 1, 4, f);
	fwrite(hdr, 4, 5, f);
	fwrite(&dp->dd_rtype, sizeof(dp->dd_rtype), 1, f);
	fwrite(dp->dd_insns, 4, dp->dd_ninsns, f);
	fwrite(dp->dd_inttab, 8, dp->dd_nints, f);
	fwrite(dp->dd_strtab, 1, dp->dd_strlen, f);
	fwrite(dp->dd_vartab, sizeof(dif_var_t), dp->dd_nvars, f);
	if (f != stdout)
		fclose(f);
}

static void read_difo(const char *path, struct buf *b, dif_difo_t *dp)
{
	size_t len, need;
	char *d = slurp(path, &len);
	uint32_t h[5];

	memcpy(h, d + 4, sizeof(h));
	if (len < 28 + sizeof(dif_type_t) || memcmp(d, "DIFO", 4) || h[0] != 1 ||
	    h[1] > CAP_INSNS || h[2] > CAP_INTS || h[3] > CAP_STRS || h[4] > CAP_VARS)
		goto bad;
	need = 24 + sizeof(dif_type_t) + 4 * (size_t)h[1] + 8 * (size_t)h[2] + h[3] +
	       sizeof(dif_var_t) * h[4];
	if (len != need)
		goto bad;
	*dp = (dif_difo_t){ b->insns, h[1], b->ints, h[2], b->strs, h[3], b->vars,
	                    h[4], { 0, 0, 0, 0 } };
	d += 24;
	memcpy(&dp->dd_rtype, d, sizeof(dif_type_t)); d += sizeof(dif_type_t);
	memcpy(b->insns, d, 4 * (size_t)h[1]); d += 4 * (size_t)h[1];
	memcpy(b->ints, d, 8 * (size_t)h[2]); d += 8 * (size_t)h[2];
	memcpy(b->strs, d, h[3]); d += h[3];
	memcpy(b->vars, d, sizeof(dif_var_t) * h[4]);
	return;
bad:
	fprintf(stderr, "%s: not a DIFO file\n", path);
	exit(1);
}

static char *disasm(const dif_difo_t *dp)
{
	size_t n = dif_disasm(dp, NULL, 0);
	char *t = malloc(n + 1);

	dif_disasm(dp, t, n + 1);
	return t;
}

static bool same(const dif_difo_t *a, const dif_difo_t *b)
{
	return a->dd_ninsns == b->dd_ninsns && a->dd_nints == b->dd_nints &&
	    a->dd_strlen == b->dd_strlen && a->dd_nvars == b->dd_nvars &&
	    !memcmp(&a->dd_rtype, &b->dd_rtype, sizeof(a->dd_rtype)) &&
	    !memcmp(a->dd_insns, b->dd_insns, 4 * (size_t)a->dd_ninsns) &&
	    !memcmp(a->dd_inttab, b->dd_inttab, 8 * (size_t)a->dd_nints) &&
	    !memcmp(a->dd_strtab, b->dd_strtab, a->dd_strlen) &&
	    !memcmp(a->dd_vartab, b->dd_vartab, sizeof(dif_var_t) * a->dd_nvars);
}

static int round_trip(const char *path)
{
	struct buf *b1 = calloc(1, sizeof(*b1)), *b2 = calloc(1, sizeof(*b2));
	dif_asmbuf_t ab = { b2->insns, CAP_INSNS, b2->ints, CAP_INTS, b2->strs,
	                    CAP_STRS, b2->vars, CAP_VARS };
	dif_difo_t d1, d2;
	char *t1, *t2, err[256];

	assemble(path, b1, &d1);
	t1 = disasm(&d1);
	if (dif_asm(t1, strlen(t1), &ab, &d2, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: reassembly: %s\n%s", path, err, t1);
		return 1;
	}
	t2 = disasm(&d2);
	if (!same(&d1, &d2) || strcmp(t1, t2) != 0) {
		fprintf(stderr, "%s: round trip differs\n%s---\n%s", path, t1, t2);
		return 1;
	}
	return 0;
}

static void report(void *arg, uint32_t pc, const char *why)
{
	if (pc == DIF_PC_NONE)
		fprintf(stderr, "%s: %s\n", (const char *)arg, why);
	else
		fprintf(stderr, "%s: pc %u: %s\n", (const char *)arg, pc, why);
}

static void list_ops(void)
{
	for (unsigned op = 0; op < 256; op++) {
		const dif_opinfo_t *oi = dif_opinfo(op);
		if (oi)
			printf("0x%02x  %-8s %s\n", op, oi->oi_name, oi->oi_meaning);
	}
	for (unsigned id = 0; id < DIF_SUBR_MAX; id++)
		if (dif_subrinfo(id))
			printf("subr %2u  %s\n", id, dif_subrinfo(id)->si_proto);
}

int main(int argc, char **argv)
{
	static struct buf b;
	dif_difo_t dp;

	if (argc == 2 && strcmp(argv[1], "-l") == 0) {
		list_ops();
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-d") == 0) {
		read_difo(argv[2], &b, &dp);
		fputs(disasm(&dp), stdout);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-c") == 0)
		return round_trip(argv[2]);
	if (argc == 3 && strcmp(argv[1], "-V") == 0) {
		assemble(argv[2], &b, &dp);
		return dif_validate(&dp, DIF_VF_USER | DIF_VF_DESTRUCTIVE, report,
		                    argv[2]) ? 1 : 0;
	}
	if (argc == 2 || (argc == 4 && strcmp(argv[1], "-o") == 0)) {
		assemble(argv[argc - 1], &b, &dp);
		write_difo(argc == 4 ? argv[2] : NULL, &dp);
		return 0;
	}
	fprintf(stderr, "usage: difasm [-o OUT] IN | -d IN.difo | -c IN | -V IN | -l\n");
	return 2;
}
