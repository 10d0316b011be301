/*
 * tests/unit/dlang_provider_test.c: host unit tests of provider definitions
 * and dtrace -h's header (dlang/dt_provider.c): the probes parsed in order
 * with their argument types, DTrace's macro names (capitals, "__" as "_"),
 * the include guard, a buffer too small, and the definition errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dlang/dt.h"

#define ARENA (4u << 20)
static uint8_t arena[ARENA];

static dt_prog *compile_ok(const char *src)
{
	dt_prog *p = NULL;
	dt_error e;
	int rc = dt_compile(src, strlen(src), NULL, arena, ARENA, &p, &e);
	if (rc != 0)
		fail_msg("%s: %s", e.de_tag, e.de_msg);
	return p;
}

static const char *compile_tag(const char *src)
{
	static dt_error e;
	dt_prog *p;
	assert_int_not_equal(dt_compile(src, strlen(src), NULL, arena, ARENA, &p, &e), 0);
	return e.de_tag;
}

static const char SHOP[] =
	"provider shop {\n"
	"\tprobe order__start(int, char *);\n"
	"\tprobe closed(void);\n"
	"};\n";

static void
test_parsed(void **state)
{
	(void)state;
	dt_prog *p = compile_ok(SHOP);
	assert_non_null(p->dp_providers);
	assert_string_equal(p->dp_providers->pv_name, "shop");
	assert_int_equal(p->dp_providers->pv_nprobes, 2);
	const dt_probedef *a = p->dp_providers->pv_probes;
	assert_string_equal(a->pr_name, "order__start");
	assert_int_equal(a->pr_nargs, 2);
	assert_string_equal(a->pr_args[0], "int");
	assert_string_equal(a->pr_args[1], "char *");
	assert_string_equal(a->pr_next->pr_name, "closed");
	assert_int_equal(a->pr_next->pr_nargs, 0);
	assert_null(p->dp_providers->pv_next);
	assert_int_equal(p->dp_nclauses, 0);
}

static void
test_header(void **state)
{
	char buf[4096];
	(void)state;
	dt_prog *p = compile_ok(SHOP);
	size_t n = dt_header_write(p, "shop_provider.h", buf, sizeof(buf));
	assert_int_equal(n, strlen(buf));
	assert_non_null(strstr(buf, "#ifndef SONDE_USDT_SHOP_PROVIDER_H\n"
	    "#define SONDE_USDT_SHOP_PROVIDER_H\n\n#include \"userland/libc/usdt.h\"\n"));
	assert_non_null(strstr(buf, "/* shop:::order__start(int, char *) */\n"
	    "#define SHOP_ORDER_START(arg0, arg1) \\\n"
	    "\tDTRACE_PROBE2(shop, order__start, (arg0), (arg1))\n"
	    "#define SHOP_ORDER_START_ENABLED() \\\n"
	    "\tDTRACE_IS_ENABLED(shop, order__start)\n"));
	assert_non_null(strstr(buf, "#define SHOP_CLOSED() \\\n\tDTRACE_PROBE0(shop, closed)\n"));
	assert_true(strstr(buf, "ORDER_START") < strstr(buf, "CLOSED"));
	assert_string_equal(buf + n - 8, "\n#endif\n");
}

static void
test_small_buffer(void **state)
{
	char small[16], big[4096];
	(void)state;
	dt_prog *p = compile_ok(SHOP);
	size_t need = dt_header_write(p, "x.h", NULL, 0);
	assert_int_equal(dt_header_write(p, "x.h", small, sizeof(small)), need);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_int_equal(dt_header_write(p, "x.h", big, sizeof(big)), need);
	assert_memory_equal(small, big, sizeof(small) - 1);
}

static void
test_errors(void **state)
{
	(void)state;
	assert_string_equal(compile_tag("provider p { probe a(int); probe a(); };"), "D_PROV_PRDUP");
	assert_string_equal(compile_tag("provider p { probe a(int, int, int, int, int, int, int); };"),
	    "D_PROV_PRARGLEN");
	assert_string_equal(compile_tag("provider p { probe a(int) : (int); };"), "D_SYNTAX");
	assert_string_equal(compile_tag("provider p { probe a(int) };"), "D_SYNTAX");
	assert_string_equal(compile_tag("provider p { a(int); };"), "D_SYNTAX");
	assert_string_equal(compile_tag("provider { probe a(); };"), "D_SYNTAX");
	assert_string_equal(compile_tag("provider p { probe a(7); };"), "D_SYNTAX");
	assert_string_equal(compile_tag("provider p { probe a(); }"), "D_SYNTAX");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parsed),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_small_buffer),
		cmocka_unit_test(test_errors),
	};
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
