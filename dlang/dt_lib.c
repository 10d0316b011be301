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
 * copies), and dt_lib_load() compiles each, in the order given but each
 * after the files it names in "#pragma D depends_on library NAME" lines
 * (an unknown or circular one is D_PRAGMA_DEPEND), into the same context
 * as the program that follows.  So whatever a library file
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
 *
 * Tests: tests/unit/dlang_lib_test.c; tests/d/dlib
 */
#include "dlang/dt.h"

/* Compile one library file's text into the context. */
static void lib_compile(dt_ctx *ctx, const dt_libsrc *ls)
{
	ctx->c_lib = ls->ls_name != NULL ? ls->ls_name : "<library>";
	ctx->c_src = ls->ls_src;
	ctx->c_len = ls->ls_src == NULL ? 0 : ls->ls_len;
	dt_lex_init(ctx);
	dt_parse_library(ctx);
}

/* ---- dependencies: #pragma D depends_on library NAME ---- */

/* Skip blanks from p; return the new position. */
static size_t skip_blanks(const char *s, size_t len, size_t p)
{
	while (p < len && (s[p] == ' ' || s[p] == '\t'))
		p++;
	return p;
}

/* Match word w at p (followed by a blank); advance past it. */
static bool match_word(const char *s, size_t len, size_t *p, const char *w)
{
	size_t n = dt_strlen(w);
	if (*p + n >= len || __builtin_memcmp(s + *p, w, n) != 0 ||
	    (s[*p + n] != ' ' && s[*p + n] != '\t'))
		return false;
	*p = skip_blanks(s, len, *p + n);
	return true;
}

/* The file name of a library, without its directory. */
static const char *lib_base(const dt_libsrc *ls)
{
	const char *b = ls->ls_name != NULL ? ls->ls_name : "";
	for (const char *p = b; *p != '\0'; p++)
		if (*p == '/')
			b = p + 1;
	return b;
}

/* The library whose file is named name[0..n), or -1. */
static int lib_find(const dt_opts *o, const char *name, size_t n)
{
	for (uint32_t i = 0; i < o->o_nlibs; i++) {
		const char *b = lib_base(&o->o_libs[i]);
		if (dt_strlen(b) == n && __builtin_memcmp(b, name, n) == 0)
			return (int)i;
	}
	return -1;
}

static void lib_load_one(dt_ctx *ctx, uint32_t i, uint8_t *state);

static _Noreturn void lib_missing(dt_ctx *ctx, const dt_libsrc *ls, const char *name, size_t n)
{
	char nm[64];
	n = n < sizeof(nm) - 1 ? n : sizeof(nm) - 1;
	__builtin_memcpy(nm, name, n);
	nm[n] = '\0';
	ctx->c_lib = ls->ls_name;
	dt_error_at(ctx, 1, 1, "D_PRAGMA_DEPEND", "failed to find dependency "
	    "in libdir: %s", nm);
}

/*
 * Load first every library that file i names in a "#pragma D depends_on
 * library NAME" line (DTrace's way of ordering its library).
 */
static void lib_load_deps(dt_ctx *ctx, uint32_t i, uint8_t *state)
{
	const dt_libsrc *ls = &ctx->c_opts->o_libs[i];
	const char *s = ls->ls_src;
	size_t len = s == NULL ? 0 : ls->ls_len;
	for (size_t p = 0; p < len; ) {
		size_t q = skip_blanks(s, len, p);
		if (q < len && s[q] == '#') {
			q = skip_blanks(s, len, q + 1);
			if (match_word(s, len, &q, "pragma") &&
			    match_word(s, len, &q, "D") &&
			    match_word(s, len, &q, "depends_on") &&
			    match_word(s, len, &q, "library")) {
				size_t e = q;
				while (e < len && s[e] != '\n' && s[e] != ' ' &&
				    s[e] != '\t' && s[e] != '\r')
					e++;
				int j = lib_find(ctx->c_opts, s + q, e - q);
				if (j < 0)
					lib_missing(ctx, ls, s + q, e - q);
				lib_load_one(ctx, (uint32_t)j, state);
			}
		}
		while (p < len && s[p] != '\n')
			p++;
		p++;
	}
}

/*
 * A program's "#pragma D depends_on library NAME": the library must have
 * that file (it is compiled already: every library file comes first).
 */
void dt_lib_depends(dt_ctx *ctx, const char *name, uint32_t line)
{
	const dt_opts *o = ctx->c_opts;
	if (ctx->c_lib != NULL)
		return;		/* a library's own: ordered by lib_load_deps */
	if (o->o_libs == NULL || lib_find(o, name, dt_strlen(name)) < 0)
		dt_error_at(ctx, line, 1, "D_PRAGMA_DEPEND", "failed to find "
		    "dependency in libdir: %s", name);
}

enum { LIB_TODO, LIB_BUSY, LIB_DONE };

static void lib_load_one(dt_ctx *ctx, uint32_t i, uint8_t *state)
{
	if (state[i] == LIB_DONE)
		return;
	if (state[i] == LIB_BUSY)
		dt_error_at(ctx, 1, 1, "D_PRAGMA_DEPEND", "circular library "
		    "dependency: %s", lib_base(&ctx->c_opts->o_libs[i]));
	state[i] = LIB_BUSY;
	lib_load_deps(ctx, i, state);
	lib_compile(ctx, &ctx->c_opts->o_libs[i]);
	state[i] = LIB_DONE;
}

void dt_lib_load(dt_ctx *ctx)
{
	const dt_opts *o = ctx->c_opts;
	const char *src = ctx->c_src;
	size_t len = ctx->c_len;
	if (o->o_libs != NULL && o->o_nlibs > 0) {
		uint8_t *state = dt_alloc(ctx, o->o_nlibs);
		for (uint32_t i = 0; i < o->o_nlibs; i++)
			lib_load_one(ctx, i, state);
	}
	ctx->c_lib = NULL;
	ctx->c_src = src;
	ctx->c_len = len;
}
