/*
 * shop [N] - a program whose USDT probes come from a D provider definition
 * (userland/bin/shop_provider.d) through the header dtrace -h makes of it
 * (build/user/usdt/shop_provider.h, mk/user.mk):
 *
 *   shop<PID>:shop:take:order-start   arg0 = order id (0..N-1), arg1 = the item's name
 *   shop<PID>:shop:take:order-done    arg0 = order id, arg1 = its cost (3 id + the name's length)
 *   shop<PID>:shop:main:closed        arg0 = orders taken (N, default 4)
 *
 * order-done's cost is only computed when its probe is enabled
 * (SHOP_ORDER_DONE_ENABLED()), the pattern is-enabled tests are for; main
 * returns how often that test said yes modulo 100 (0 when untraced), so a
 * test can see both sides.  Prints nothing.
 */
#include <stdlib.h>
#include <string.h>
#include "shop_provider.h"

static const char *const items[] = { "tea", "bread", "lamp", "soap" };
static int enabled_seen;

__attribute__((noinline)) static void take(int id)
{
	const char *item = items[id % 4];

	SHOP_ORDER_START(id, item);
	if (SHOP_ORDER_DONE_ENABLED()) {
		enabled_seen++;
		SHOP_ORDER_DONE(id, 3L * id + (long)strlen(item));
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;

	for (int i = 0; i < n; i++)
		take(i);
	SHOP_CLOSED(n);
	return enabled_seen % 100;
}
