/*
 * dtrace -C: an included file does not move the script's line numbers: the
 * syntax error below is reported at its line of this file (12), not at the
 * line it has in the preprocessed text.
 */
/* @@options: -C -x errtags */
#include "cpp_defs.h"

BEGIN
{
	x = SQUARE(2);
	y = ) ;
}
