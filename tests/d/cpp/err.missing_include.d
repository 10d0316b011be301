/*
 * dtrace -C: an #include that is in no search directory (beside the
 * script, -I, the D library's) is cpp's fatal error.
 */
/* @@options: -C */
#include "no_such_header.h"
BEGIN { exit(0); }
