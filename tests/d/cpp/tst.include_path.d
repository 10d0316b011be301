/*
 * dtrace -C: #include <...> searches the -I directories, -H prints each
 * included file's path on standard error (a dot per level), and -D given
 * after -U of the same name defines it again (command-line order).
 */
/* @@options: -C -I tests/d/cpp/inc -H -U LATE -D LATE=7 */
#pragma D option quiet
#include <cpp_inc.h>
#include "cpp_defs.h"

BEGIN
{
	printf("%s %d\n", FROM_INC, LATE);
	exit(0);
}
