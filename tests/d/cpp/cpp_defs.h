/* Included by the tst.*.d programs of this directory (dtrace -C). */
#ifndef CPP_DEFS_H
#define CPP_DEFS_H
#define SQUARE(x)	((x) * (x))
#define GREETING	__FILE__
#include "cpp_more.h"
#endif
