/*
 * dtc_gen.c - dtrace -h and -G: what a program with USDT probes is built
 * with.
 *
 * -h writes the C header of the scripts' provider definitions
 * (dt_header_write, dlang/dt_provider.c): for each probe a macro that
 * fires it and one that tests whether it is enabled, both userland/libc/
 * usdt.h's.  The file is the -o file, else the first script's name with
 * ".h" for ".d" (dtrace(1M)'s choice), created or truncated; in Sonde only
 * /tmp is writable, so elsewhere it is DTrace's "failed to open header
 * file 'x.h': Read-only file system", status 1.  The host's tools/dtc -h
 * writes the same header; the build makes /bin/shop's with it (mk/user.mk).
 *
 * -G is refused: in DTrace it makes the object file that carries the
 * program's probe table (DOF) and rewrites its call sites, but a Sonde
 * program carries its table already (each site of the header's macros
 * leaves a record in its own `sonde_usdt` section, read by the kernel), so
 * there is no object to make and nothing to link; the message says so and
 * the status is 1.
 *
 * Context: the consumer's thread, after the program compiled.
 *
 * Tests: tests/e2e/test_usdt.py
 */
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/proc.h"                /* the errno values */
#include "console/dtrace/dtc.h"

/* gen_path: the -o file, or the first script's name with .h for .d ("d.h" for -n alone). */
static void gen_path(const struct dtc *d, char *path, size_t size)
{
	const char *script = d->dc_operands[0];
	size_t n = strlen(script);

	if (d->dc_ofile != NULL) {
		kstrlcpy(path, d->dc_ofile, size);
		return;
	}
	if (strcmp(script, "dtrace") == 0) {
		kstrlcpy(path, "d.h", size);
		return;
	}
	if (n > 2 && strcmp(script + n - 2, ".d") == 0)
		n -= 2;
	ksnprintf(path, size, "%.*s.h", (int)MIN(n, size - 3), script);
}

/* gen_write: the n bytes of text into path, created or truncated; 0 or a negative errno. */
static int gen_write(const char *path, const char *text, size_t n)
{
	struct file *f;
	int r = file_open(path, FILE_O_WRONLY | FILE_O_CREAT | FILE_O_TRUNC, &f);

	if (r < 0)
		return r;
	for (size_t done = 0; done < n && r >= 0; ) {
		int64_t w = f->f_ops->fo_write(f, text + done, n - done);
		if (w <= 0)
			r = w < 0 ? (int)w : -ENOSPC;
		else
			done += (size_t)w;
	}
	file_unref(f);
	return r < 0 ? r : 0;
}

/* gen_base: the last component of path (the header's include guard is named after it). */
static const char *gen_base(const char *path)
{
	const char *base = path;

	for (const char *s = path; *s != '\0'; s++)
		if (*s == '/')
			base = s + 1;
	return base;
}

static int gen_header(struct dtc *d)
{
	char path[256];

	gen_path(d, path, sizeof(path));
	const char *base = gen_base(path);
	size_t need = dt_header_write(d->dc_prog, base, NULL, 0) + 1;
	char *text = kmalloc(need);
	if (text == NULL) {
		dtc_err("dtrace: failed to create header file %s: Not enough space\n", path);
		return 1;
	}
	dt_header_write(d->dc_prog, base, text, need);
	int r = gen_write(path, text, need - 1);
	kfree(text);
	if (r < 0) {
		dtc_err("dtrace: failed to open header file '%s': %s\n", path, file_strerror(r));
		return 1;
	}
	return 0;
}

int dtc_gen(struct dtc *d)
{
	if (d->dc_gen_header)
		return gen_header(d);
	dtc_err("dtrace: -G makes no object file in Sonde: a program's probe table travels in "
	        "the program (its sonde_usdt section); build it with the header of dtrace -h\n");
	return 1;
}
