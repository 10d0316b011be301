/* Nested include: included by cpp_defs.h, searched beside it. */
#define NESTED	__LINE__
