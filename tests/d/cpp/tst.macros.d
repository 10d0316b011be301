/*
 * dtrace -C: object-like and function-like macros, # and ##, variadic
 * macros, #include "..." (nested, included twice behind a guard),
 * #if/#elif/#else/#endif with defined() and arithmetic, #ifdef/#ifndef,
 * #undef, -D with and without a value, -U, __FILE__ and __LINE__,
 * comments and continued lines; #pragma passes through to the compiler.
 */
/* @@options: -C -D LIMIT=3 -D VERBOSE -D GONE -U GONE */
#include "cpp_defs.h"
#include "cpp_defs.h"
#pragma D option quiet

#define STR(x)		#x
#define CAT(a, b)	a ## b
#define SHOW(fmt, ...)	printf(fmt, __VA_ARGS__)
#define TWICE(x)	\
	((x) + \
	 (x))

#if defined(VERBOSE) && LIMIT * 2 == 6 && !defined GONE
#define MODE "verbose"
#elif LIMIT > 2
#define MODE "big"
#else
#define MODE "small"
#endif

#ifndef LIMIT
#error LIMIT is not defined
#endif

#define TEMP 1
#undef TEMP

BEGIN
{
	SHOW("%d %d %s\n", SQUARE(LIMIT), TWICE(2), MODE);  /* a comment */
	SHOW("%s|%s\n", STR(a + b), GREETING);
	CAT(print, f)("line %d nested %d\n", __LINE__, NESTED);
#ifdef TEMP
	printf("TEMP is still defined\n");
#endif
#if 0
	this is not D and is never compiled
#endif
	exit(0);
}
