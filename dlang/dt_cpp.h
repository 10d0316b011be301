/*
 * dlang/dt_cpp.h: the C preprocessor for D programs (dtrace -C).
 *
 * dtrace(1M)'s -C runs cpp over a program before the D compiler sees it.
 * Sonde's consumer runs in the kernel, so the preprocessor is part of the
 * compiler's front (dt_cpp.c), freestanding like the rest of dlang/: all
 * memory from an arena the caller gives, files read through a callback,
 * no globals.  It does what D scripts use cpp for: object-like and
 * function-like macros (with # and ##, and ... / __VA_ARGS__),
 * #include "..." and <...>, #if/#ifdef/#ifndef/#elif/#else/#endif with
 * integer constant expressions and defined(), #undef, #error, #line,
 * __FILE__ and __LINE__; #pragma lines pass through to the compiler.
 *
 * Line numbers: the output keeps the program's lines where they were, and
 * says so to the compiler with "#line N" control lines (the D lexer honours
 * them, as DTrace's does): the first output line is numbered
 * co_line_base, and every line an #include brought in carries the number
 * of the #include line, so a compile error in a header points at the line
 * of the program that included it.
 *
 * Not done: a function-like macro's arguments must close on the line of
 * its name (after joining backslash-continued lines), and a macro whose
 * expansion ends in the name of a function-like macro does not take its
 * arguments from the text that follows (cpp's rescan across the boundary).
 */
#ifndef DLANG_DT_CPP_H
#define DLANG_DT_CPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * dt_cpp_open_fn: the text of the file at path ("dir/x.h", as built from
 * the search directories), or false if there is none.  The text must stay
 * valid until dt_cpp returns.
 */
typedef bool dt_cpp_open_fn(void *arg, const char *path, const char **data, size_t *len);
/* dt_cpp_include_fn: an #include was opened at depth (1: by the program); for -H. */
typedef void dt_cpp_include_fn(void *arg, const char *path, int depth);

typedef struct dt_cpp_opts {
	const char *const *co_defs;     /* in order: "Dname", "Dname=value" (-D), "Uname" (-U) */
	uint32_t co_ndefs;
	const char *const *co_dirs;     /* #include search path: -I dirs, then the D library's */
	uint32_t co_ndirs;
	dt_cpp_open_fn *co_open;
	dt_cpp_include_fn *co_included; /* may be NULL */
	void *co_arg;
	uint32_t co_line_base;          /* the number of the first line (1 if 0) */
	uint32_t co_version;            /* __SUNW_D_VERSION: the D version bound (0: the newest) */
} dt_cpp_opts;

typedef struct dt_cpp_error {
	char ce_file[128];              /* where: the file as named (the program's name, */
	uint32_t ce_line, ce_col;       /* or the include's path), line, column */
	const char *ce_kind;            /* "error" or "fatal error" */
	char ce_msg[256];               /* as cpp words it: "#error text", "unterminated #if" */
} dt_cpp_error;

#define DT_CPP_OK     0
#define DT_CPP_ERROR  (-1)          /* err says why */
#define DT_CPP_NOMEM  (-2)          /* the arena is too small: retry with a bigger one */

/*
 * dt_cpp: preprocess src (len bytes, need not be NUL-terminated), the text
 * of file, into *out (*outlen bytes, NUL-terminated, in the arena).
 * Returns DT_CPP_OK, DT_CPP_ERROR or DT_CPP_NOMEM.  Context: any (no locks,
 * no globals); stack use bounded by the include depth (at most 32).
 */
int dt_cpp(const char *src, size_t len, const char *file, const dt_cpp_opts *o, void *arena,
           size_t size, char **out, size_t *outlen, dt_cpp_error *err);

#endif
