/*
 * dlang/dt_lib.c: the D library, compiled before every program.
 *
 * DTrace predefines much of what D programs take for granted in D itself:
 * files of declarations in /usr/lib/dtrace (errno and signal names, the
 * fault codes DTRACEFLT_*, register indexes R_*, NULL, the cpuinfo_t type
 * and the curcpu inline that translates to it...).  Sonde does the same:
 * the embedder hands the files' texts over in dt_opts.o_libs (the dtrace
 * command reads them from its libdir, the image's built-in usr/lib/dtrace
 * unless -x libdir= says otherwise; the host dtc reads the source tree's
 * copies), and dt_lib_load() compiles each, in the order given, into the
 * same context as the program that follows.  So whatever a library file
 * declares is an ordinary identifier or type of the program: a program that
 * declares the same name again gets D_DECL_IDRED, as in DTrace.
 *
 * What a library file may contain: declarations, typedefs, struct, union
 * and enum definitions, inlines, translators and #pragma lines; no probe
 * clause (D_SYNTAX), and it may be empty.  What only a library may do:
 * define an inline with the name of a built-in variable (curcpu), which
 * then hides the built-in from programs; inside that inline's own body the
 * name still means the built-in (dt_sema_ref.c), as DTrace's library
 * bindings do.  An error in a library file is reported with the file's
 * name (dt_error.de_file).
 *
 * Context: as dt_compile() (no globals; the texts stay the caller's and are
 * read only while compiling).
 */
#include "dlang/dt.h"

/* Compile one library file's text into the context. */
static void
lib_compile(dt_ctx *ctx, const dt_libsrc *ls)
{
	ctx->c_lib = ls->ls_name != NULL ? ls->ls_name : "<library>";
	ctx->c_src = ls->ls_src;
	ctx->c_len = ls->ls_src == NULL ? 0 : ls->ls_len;
	dt_lex_init(ctx);
	dt_parse_library(ctx);
}

void
dt_lib_load(dt_ctx *ctx)
{
	const dt_opts *o = ctx->c_opts;
	const char *src = ctx->c_src;
	size_t len = ctx->c_len;
	for (uint32_t i = 0; o->o_libs != NULL && i < o->o_nlibs; i++)
		lib_compile(ctx, &o->o_libs[i]);
	ctx->c_lib = NULL;
	ctx->c_src = src;
	ctx->c_len = len;
}
