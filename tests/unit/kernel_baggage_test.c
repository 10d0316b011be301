/*
 * kernel_baggage_test.c - the baggage wire format (kernel/baggage_fmt.c): packing,
 * lookup with all / first / last values, the multiset merge, trimming with
 * the overflow marker, pushed-down sums, and malformed bytes rejected.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "kernel/baggage.h"
#include "kernel/klib.h"

#define K(s) s, sizeof(s) - 1

static struct baggage empty(void)
{
	struct baggage b;
	memset(&b, 0, sizeof(b));
	return b;
}

static void test_empty(void **state)
{
	struct baggage b = empty();
	struct bag_value v;

	(void)state;
	assert_int_equal(bag_len(&b), 0);
	assert_int_equal(bag_lookup(&b, K("client"), 0, &v), 0);
	assert_int_equal(bag_validate(b.b_bytes, 0), 0);
}

static void test_pack_lookup(void **state)
{
	struct baggage b = empty();
	struct bag_value v;

	(void)state;
	assert_int_equal(bag_pack_str(&b, K("client"), "pingpong", 8), 0);
	assert_int_equal(bag_pack_int(&b, K("req"), 42), 0);
	assert_int_equal(bag_pack_str(&b, K("client"), "sh", 2), 0);
	/* header 4; client: 1+6+1+1+8 = 17; req: 1+3+1+8 = 13; client: 1+6+1+1+2 = 11 */
	assert_int_equal(bag_len(&b), 4 + 17 + 13 + 11);
	assert_int_equal(bag_validate(b.b_bytes, bag_len(&b)), 0);
	assert_int_equal(bag_lookup(&b, K("client"), 0, &v), 2);
	assert_int_equal(v.bv_type, BAG_T_STR);
	assert_memory_equal(v.bv_str, "pingpong", 8);
	assert_int_equal(bag_lookup(&b, K("client"), -1, &v), 2);
	assert_memory_equal(v.bv_str, "sh", 2);
	assert_int_equal(bag_lookup(&b, K("req"), 0, &v), 1);
	assert_int_equal(v.bv_int, 42);
	/* little-endian on the wire whatever the host */
	assert_int_equal(b.b_bytes[4 + 17 + 5], 42);
	assert_int_equal(b.b_bytes[2], 45);
	assert_int_equal(bag_lookup(&b, K("nothere"), 0, &v), 0);
}

static void test_bad_key(void **state)
{
	struct baggage b = empty();

	(void)state;
	assert_int_equal(bag_pack_int(&b, K("a-b"), 1), BAG_E_INVAL);
	assert_int_equal(bag_pack_int(&b, "", 0, 1), BAG_E_INVAL);
	assert_int_equal(bag_pack_int(&b, K("abcdefghijabcdefghijabcdefghijabc"), 1), BAG_E_INVAL);
}

static void test_merge_multiset(void **state)
{
	struct baggage a = empty(), b = empty();
	struct bag_value v;

	(void)state;
	bag_pack_str(&a, K("c"), "x", 1);
	b = a;
	bag_pack_int(&b, K("s"), 1);
	/* back and forth: b already has a's history, a gains only s */
	assert_int_equal(bag_merge(&a, &b), 0);
	assert_int_equal(bag_len(&a), bag_len(&b));
	assert_memory_equal(a.b_bytes, b.b_bytes, bag_len(&a));
	assert_int_equal(bag_merge(&b, &a), 0);
	assert_int_equal(bag_count_entries(&b), 2);
	/* a value packed twice stays twice; merging with itself adds nothing */
	bag_pack_str(&a, K("c"), "x", 1);
	assert_int_equal(bag_lookup(&a, K("c"), 0, &v), 2);
	assert_int_equal(bag_merge(&b, &a), 0);
	assert_int_equal(bag_lookup(&b, K("c"), 0, &v), 2);
	assert_int_equal(bag_merge(&a, &a), 0);
	assert_int_equal(bag_count_entries(&a), 3);
	/* independent values join */
	struct baggage c = empty();
	bag_pack_str(&c, K("c"), "y", 1);
	assert_int_equal(bag_merge(&c, &a), 0);
	assert_int_equal(bag_lookup(&c, K("c"), 0, &v), 3);
	assert_memory_equal(v.bv_str, "y", 1);
	bag_lookup(&c, K("c"), -1, &v);
	assert_memory_equal(v.bv_str, "x", 1);
}

static void test_trim_overflow(void **state)
{
	struct baggage a = empty(), b = empty();
	int packed = 0, rc;

	(void)state;
	while ((rc = bag_pack_int(&a, K("key"), (uint64_t)packed)) == 0)
		packed++;
	assert_int_equal(rc, BAG_E_FULL);
	assert_int_equal(packed, (BAGGAGE_MAX - BAGGAGE_HDR) / 13);
	assert_true(bag_overflowed(&a));
	assert_true(bag_len(&a) <= BAGGAGE_MAX);
	assert_int_equal(bag_validate(a.b_bytes, bag_len(&a)), 0);
	/* the marker travels: merging into an empty baggage keeps it */
	assert_int_equal(bag_merge(&b, &a), 0);
	assert_true(bag_overflowed(&b));
	/* merging more than fits trims whole entries */
	struct baggage c = empty();
	bag_pack_str(&c, K("other"), "abcdefghijklmnopqrstuvwxyz", 26);
	bag_pack_str(&c, K("tiny"), "t", 1);
	assert_int_equal(bag_merge(&c, &a), BAG_E_FULL);
	assert_true(bag_overflowed(&c));
	assert_int_equal(bag_validate(c.b_bytes, bag_len(&c)), 0);
	assert_true(bag_len(&c) <= BAGGAGE_MAX);
	/* a long string is cut at BAGGAGE_STR_MAX */
	struct baggage d = empty();
	char longs[200];
	struct bag_value v;
	memset(longs, 'z', sizeof(longs));
	assert_int_equal(bag_pack_str(&d, K("s"), longs, sizeof(longs)), 0);
	bag_lookup(&d, K("s"), 0, &v);
	assert_int_equal(v.bv_len, BAGGAGE_STR_MAX);
}

static void test_sum_pushdown(void **state)
{
	struct baggage a = empty(), b;
	struct bag_value v;

	(void)state;
	for (int i = 1; i <= 100; i++)
		assert_int_equal(bag_add_sum(&a, K("bytes"), (uint64_t)i), 0);
	assert_int_equal(bag_count_entries(&a), 1);
	assert_int_equal(bag_len(&a), 4 + 1 + 5 + 1 + 8);
	bag_lookup(&a, K("bytes"), 0, &v);
	assert_int_equal(v.bv_type, BAG_T_SUM);
	assert_int_equal(v.bv_int, 5050);
	b = a;
	bag_add_sum(&b, K("bytes"), 1);
	assert_int_equal(bag_merge(&a, &b), 0);       /* the longer history wins */
	bag_lookup(&a, K("bytes"), 0, &v);
	assert_int_equal(v.bv_int, 5051);
	assert_int_equal(bag_count_entries(&a), 1);
}

static void test_malformed(void **state)
{
	struct baggage a = empty(), d = empty();
	uint8_t w[BAGGAGE_MAX + 8];
	size_t n;

	(void)state;
	bag_pack_str(&a, K("client"), "pp", 2);
	bag_pack_int(&a, K("req"), 7);
	n = bag_len(&a);
	memcpy(w, a.b_bytes, n);
	assert_int_equal(bag_merge_wire(&d, w, n), 0);
	assert_int_equal(bag_count_entries(&d), 2);
	/* every truncation is rejected, and leaves d alone */
	for (size_t k = 1; k < n; k++)
		assert_int_equal(bag_merge_wire(&d, w, k), BAG_E_MALFORMED);
	/* wrong magic, unknown flag, length mismatch, too long */
	w[0] = 0xB2;
	assert_int_equal(bag_validate(w, n), BAG_E_MALFORMED);
	w[0] = BAGGAGE_MAGIC; w[1] = 0x80;
	assert_int_equal(bag_validate(w, n), BAG_E_MALFORMED);
	w[1] = 0; w[2]++;
	assert_int_equal(bag_validate(w, n), BAG_E_MALFORMED);
	w[2]--;
	assert_int_equal(bag_validate(w, BAGGAGE_MAX + 1), BAG_E_MALFORMED);
	/* a key with a bad character, an unknown type, a string too long or with a NUL */
	memcpy(w, a.b_bytes, n);
	w[5] = '-';
	assert_int_equal(bag_validate(w, n), BAG_E_MALFORMED);
	memcpy(w, a.b_bytes, n);
	w[4 + 1 + 6] = 9;
	assert_int_equal(bag_validate(w, n), BAG_E_MALFORMED);
	memcpy(w, a.b_bytes, n);
	w[4 + 1 + 6 + 1] = 200;
	assert_int_equal(bag_validate(w, n), BAG_E_MALFORMED);
	memcpy(w, a.b_bytes, n);
	w[4 + 1 + 6 + 2] = 0;
	assert_int_equal(bag_validate(w, n), BAG_E_MALFORMED);
	memcpy(w, a.b_bytes, n);
	w[4] = 0;                                 /* an empty key */
	assert_int_equal(bag_validate(w, n), BAG_E_MALFORMED);
	assert_int_equal(bag_count_entries(&d), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_pack_lookup),
		cmocka_unit_test(test_bad_key),
		cmocka_unit_test(test_merge_multiset),
		cmocka_unit_test(test_trim_overflow),
		cmocka_unit_test(test_sum_pushdown),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
