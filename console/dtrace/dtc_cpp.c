/*
 * dtc_cpp.c - dtrace -C: each program through the C preprocessor first.
 *
 * dtrace(1M)'s -C runs cpp over the D program before compiling it, with
 * -D name[=value], -U name and -I dir passed on (in command-line order)
 * and -H printing the path of every file included.  Sonde's preprocessor
 * is the compiler's own (dlang/dt_cpp.c, dt_cpp_expand.c); this file gives it what the
 * consumer knows: the macros and directories of the command line, the
 * files of the image and of the boot module (kernel/kfile.h) to include,
 * searched in the -I directories and then the D library's directory, and
 * the line each description starts on in the combined program (so the
 * compiler's line numbers stay those of the script).
 *
 * A failure prints what cpp would (its diagnostic, "FILE:LINE:COL: error:
 * MESSAGE") and then DTrace's message, "failed to compile script FILE:
 * Preprocessor failed to process input program" (for -n: "invalid probe
 * specifier TEXT: ..."), exit status 1.  Thread context.
 *
 * Tests: tests/d/cpp
 */
#include "dlang/dt_cpp.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

#define CPP_ARENA_MIN (256UL << 10)
#define CPP_ARENA_MAX (16UL << 20)
#define CPP_LIBDIR    "usr/lib/dtrace"

static bool cpp_open(void *arg, const char *path, const char **data, size_t *len)
{
	const struct kfile *kf = kfile_lookup(path);

	(void)arg;
	if (kf == NULL)
		return false;
	*data = (const char *)kf->kf_data;
	*len = (size_t)kf->kf_size;
	return true;
}

/* cpp_included: -H, as cpp prints it: one dot per level, a space, the path. */
static void cpp_included(void *arg, const char *path, int depth)
{
	struct dtc *d = arg;

	if (d->dc_cpp_hdrs)
		dtc_err("%.*s %s\n", depth, "................", path);
}

/* dtc_cpp_add: one -D (kind 'D', "name[=value]"), -U ('U') or -I ('I'); false if full. */
bool dtc_cpp_add(struct dtc *d, char kind, const char *arg)
{
	if (kind == 'I') {
		if (d->dc_ncpp_dirs == DTC_MAXCPPDIRS)
			return false;
		d->dc_cpp_dirs[d->dc_ncpp_dirs++] = arg;
		return true;
	}
	if (d->dc_ncpp_defs == DTC_MAXCPPDEFS)
		return false;
	size_t n = strlen(arg);
	char *def = kmalloc(n + 2);
	if (def == NULL)
		return false;
	def[0] = kind;
	memcpy(def + 1, arg, n + 1);
	d->dc_cpp_defs[d->dc_ncpp_defs++] = def;
	return true;
}

static void cpp_fail(const struct dtc_desc *dd, const dt_cpp_error *e)
{
	dtc_err("%s:%u:%u: %s: %s\n", e->ce_file, e->ce_line, e->ce_col, e->ce_kind, e->ce_msg);
	if (dd->dd_kind == DTC_SCRIPT)
		dtc_err("dtrace: failed to compile script %s: Preprocessor failed to process "
		        "input program\n", dd->dd_text);
	else
		dtc_err("dtrace: invalid probe specifier %s: Preprocessor failed to process "
		        "input program\n", dd->dd_text);
}

/* cpp_run: dt_cpp with an arena that doubles until it is big enough. */
static int cpp_run(struct dtc *d, struct dtc_desc *dd, const dt_cpp_opts *o, dt_cpp_error *e,
                   char **out, size_t *outlen)
{
	const char *name = dd->dd_kind == DTC_SCRIPT ? dd->dd_text : "<stdin>";

	for (size_t size = CPP_ARENA_MIN; size <= CPP_ARENA_MAX; size *= 2) {
		void *arena = kmalloc(size);
		if (arena == NULL)
			break;
		char *text;
		int rc = dt_cpp(dd->dd_src, dd->dd_len, name, o, arena, size, &text, outlen, e);
		if (rc == DT_CPP_OK) {
			*out = kmalloc(*outlen + 1);
			if (*out != NULL)
				memcpy(*out, text, *outlen + 1);
			kfree(arena);
			return *out != NULL ? DT_CPP_OK : DT_CPP_NOMEM;
		}
		kfree(arena);
		if (rc == DT_CPP_ERROR)
			return rc;
	}
	(void)d;
	return DT_CPP_NOMEM;
}

int dtc_cpp_desc(struct dtc *d, struct dtc_desc *dd, uint32_t line_base)
{
	const char *dirs[DTC_MAXCPPDIRS + 1];
	uint32_t ndirs = 0;
	dt_cpp_error e;
	char *out;
	size_t outlen;

	for (int i = 0; i < d->dc_ncpp_dirs; i++)
		dirs[ndirs++] = kfile_path_trim(d->dc_cpp_dirs[i]);
	dirs[ndirs++] = kfile_path_trim(d->dc_libdir != NULL ? d->dc_libdir : CPP_LIBDIR);
	dt_cpp_opts o = {
		.co_defs = d->dc_cpp_defs, .co_ndefs = (uint32_t)d->dc_ncpp_defs,
		.co_dirs = dirs, .co_ndirs = ndirs,
		.co_open = cpp_open, .co_included = cpp_included, .co_arg = d,
		.co_line_base = line_base, .co_version = d->dc_version,
	};
	int rc = cpp_run(d, dd, &o, &e, &out, &outlen);
	if (rc == DT_CPP_ERROR) {
		cpp_fail(dd, &e);
		return 1;
	}
	if (rc != DT_CPP_OK) {
		dtc_err("dtrace: not enough memory to preprocess %s\n", dd->dd_text);
		return 1;
	}
	if (dd->dd_kind != DTC_SCRIPT || dd->dd_src_owned)
		kfree(dd->dd_src);                  /* -n's text (dtc_desc.c) or a /tmp script's */
	dd->dd_src = out;                       /* freed with the command (dtrace_cmd.c) */
	dd->dd_len = (uint32_t)outlen;
	dd->dd_src_owned = true;
	return -1;
}
