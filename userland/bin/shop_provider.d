/*
 * shop_provider.d - the USDT probes of /bin/shop, declared as DTrace
 * declares a program's probes.  The build turns it into the header
 * build/user/usdt/shop_provider.h with `dtc -h` (mk/user.mk; dtrace -h in
 * the guest makes the same), and userland/bin/shop.c fires them with its
 * macros: SHOP_ORDER_START(id, item), SHOP_ORDER_DONE(id, cost),
 * SHOP_CLOSED(orders) and SHOP_ORDER_DONE_ENABLED().
 */
provider shop {
	probe order__start(int, char *);
	probe order__done(int, long);
	probe closed(int);
};
