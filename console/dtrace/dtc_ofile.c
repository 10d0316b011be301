/*
 * dtc_ofile.c - where the consumer's output goes: -o FILE and freopen().
 *
 * Theory.  Everything the consumer prints as standard output (records,
 * aggregations, -l's listing) goes through the thread's standard output
 * (kstdout_write, kernel/kstdio.c), as every shell command's does.  So
 * sending it to a file is giving the consumer's thread that file as its
 * standard output for as long as the command runs, and taking it back at
 * the end:
 *   - `-o FILE` opens FILE for appending, creating it (dtrace(1M) appends
 *     to an existing file), before anything is compiled or listed, so a
 *     file that cannot be opened is a fatal error with nothing done:
 *     "dtrace: failed to open output file 'FILE': REASON", status 1;
 *   - `freopen(path)` (a destructive action, -w) sends what follows to
 *     path, also appended; `freopen("")` brings output back to where it
 *     went before the first freopen (the -o file, or standard output).
 *     A path that cannot be opened is reported on standard error and the
 *     output stays where it was.
 * Only writable files can be opened: in Sonde those are under /tmp
 * (kernel/tmpfs.c); elsewhere the reason is "Read-only file system".
 * Error messages always stay on standard error.  A write that fails (/tmp
 * full) ends tracing as a broken pipe does (kernel/kstdio.c); the command
 * then says so and exits with status 1.
 *
 * system()'s command runs with dtrace's own standard output, as a child of
 * dtrace(1M) inherits its descriptor 1: -o does not redirect it, a
 * freopen() does (docs/consumer.md).
 *
 * -h's header is written by dtc_gen.c (to the -o file, truncated); with
 * -h or -G the -o file is theirs, not the output's, so it is not opened
 * here (a refused -G leaves no empty file behind).
 * Context: the consumer's thread, thread context.
 *
 * Tests: tests/e2e/test_dtrace_ofile.py
 */
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/proc.h"                /* the errno values */
#include "console/dtrace/dtc.h"

#define OFILE_FLAGS (FILE_O_WRONLY | FILE_O_CREAT | FILE_O_APPEND)

int dtc_ofile_open(struct dtc *d)
{
	struct file *f;
	int r;

	d->dc_out_orig = kstdio_get();
	if (d->dc_ofile == NULL || d->dc_gen_object || d->dc_gen_header)
		return -1;              /* with -G or -h, -o names the file they write */
	if ((r = file_open(d->dc_ofile, OFILE_FLAGS, &f)) < 0) {
		dtc_err("dtrace: failed to open output file '%s': %s\n", d->dc_ofile, file_strerror(r));
		return 1;
	}
	kstdio_set(f);
	d->dc_out_file = f;
	return -1;
}

void dtc_ofile_freopen(struct dtc *d, const char *path)
{
	struct file *f = NULL, *base = d->dc_out_file != NULL ? d->dc_out_file : d->dc_out_orig;
	int r;

	if (path[0] != 0 && (r = file_open(path, OFILE_FLAGS, &f)) < 0) {
		dtc_err("dtrace: failed to freopen to %s: %s\n", path, file_strerror(r));
		return;
	}
	kstdio_set(f != NULL ? f : base);
	file_unref(d->dc_freopen_file);
	d->dc_freopen_file = f;
}

struct file *dtc_ofile_system_out(struct dtc *d)
{
	return d->dc_freopen_file != NULL ? d->dc_freopen_file : d->dc_out_orig;
}

int dtc_ofile_close(struct dtc *d)
{
	int err = kstdout_error();

	if (d->dc_out_file == NULL && d->dc_freopen_file == NULL)
		return 0;
	if (err != 0 && err != EPIPE)
		dtc_err("dtrace: failed to write to %s: %s\n", d->dc_freopen_file != NULL ?
		        "the freopen() file" : d->dc_ofile, file_strerror(-err));
	kstdio_set(d->dc_out_orig);
	file_unref(d->dc_freopen_file);
	file_unref(d->dc_out_file);
	d->dc_freopen_file = d->dc_out_file = NULL;
	return err != 0 && err != EPIPE ? 1 : 0;
}
