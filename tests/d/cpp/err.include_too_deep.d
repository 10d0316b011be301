/*
 * dtrace -C: #include nests at most 16 deep (a header that includes itself
 * stops there), and the message names the limit.
 */
/* @@options: -C -I tests/d/cpp/inc */
#include <cpp_self.h>
BEGIN { exit(0); }
