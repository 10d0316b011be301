/*
 * kernel_cred_test.c - the rules for changing user and group ids
 * (kernel/cred.c): setuid and setgid as root (all three ids, for good) and
 * as a user (the effective id, to the real or saved one only), the saved
 * id taking privilege back after a seteuid, setresuid's and setresgid's
 * "-1 keeps it" and their check of every id before changing any, and that
 * every refused call leaves the ids exactly as they were.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "kernel/cred.h"

#define K CRED_KEEP

static void assert_uids(const struct cred *c, uint32_t r, uint32_t e, uint32_t s)
{
	assert_int_equal(c->cr_ruid, r);
	assert_int_equal(c->cr_euid, e);
	assert_int_equal(c->cr_suid, s);
}

static void assert_gids(const struct cred *c, uint32_t r, uint32_t e, uint32_t s)
{
	assert_int_equal(c->cr_rgid, r);
	assert_int_equal(c->cr_egid, e);
	assert_int_equal(c->cr_sgid, s);
}

/* refused: the call on c fails with err, and c is unchanged. */
#define refused(c, err, call) do { \
	struct cred before_ = *(c); \
	assert_int_equal((call), -(err)); \
	assert_memory_equal(&before_, (c), sizeof(before_)); \
} while (0)

static void test_root_and_user(void **state)
{
	(void)state;
	struct cred r = cred_root(), u = cred_user(1000, 50);

	assert_uids(&r, 0, 0, 0);
	assert_gids(&r, 0, 0, 0);
	assert_uids(&u, 1000, 1000, 1000);
	assert_gids(&u, 50, 50, 50);
}

static void test_root_setuid_is_for_good(void **state)
{
	(void)state;
	struct cred c = cred_root();

	assert_int_equal(cred_setuid(&c, 1000), 0);
	assert_uids(&c, 1000, 1000, 1000);
	refused(&c, CRED_EPERM, cred_setuid(&c, 0));
	refused(&c, CRED_EPERM, cred_setresuid(&c, K, 0, K));
	refused(&c, CRED_EPERM, cred_setgid(&c, 1));
	assert_int_equal(cred_setuid(&c, 1000), 0);          /* its own id: allowed, a no-op */
	assert_uids(&c, 1000, 1000, 1000);
}

static void test_setuid_minus_one_is_einval(void **state)
{
	(void)state;
	struct cred c = cred_root();

	refused(&c, CRED_EINVAL, cred_setuid(&c, K));
	refused(&c, CRED_EINVAL, cred_setgid(&c, K));
}

static void test_seteuid_and_back_by_the_saved_id(void **state)
{
	(void)state;
	struct cred c = cred_root();

	assert_int_equal(cred_setresuid(&c, K, 1000, K), 0);   /* seteuid(1000) */
	assert_uids(&c, 0, 1000, 0);
	refused(&c, CRED_EPERM, cred_setuid(&c, 2000));
	refused(&c, CRED_EPERM, cred_setgid(&c, 50));          /* privilege is the effective uid */
	assert_int_equal(cred_setresuid(&c, K, 0, K), 0);      /* seteuid(0): the saved id */
	assert_uids(&c, 0, 0, 0);
}

static void test_user_setuid_moves_only_the_effective_id(void **state)
{
	(void)state;
	struct cred c = cred_user(1000, 50);

	c.cr_suid = 2000;                                      /* as a set-user-id program of 2000 */
	c.cr_euid = 2000;
	assert_int_equal(cred_setuid(&c, 1000), 0);            /* the real id */
	assert_uids(&c, 1000, 1000, 2000);
	assert_int_equal(cred_setuid(&c, 2000), 0);            /* the saved id */
	assert_uids(&c, 1000, 2000, 2000);
	refused(&c, CRED_EPERM, cred_setuid(&c, 3000));
	refused(&c, CRED_EPERM, cred_setuid(&c, 0));
}

static void test_user_setgid(void **state)
{
	(void)state;
	struct cred c = cred_user(1000, 50);

	assert_int_equal(cred_setgid(&c, 50), 0);
	assert_gids(&c, 50, 50, 50);
	refused(&c, CRED_EPERM, cred_setgid(&c, 0));
	refused(&c, CRED_EPERM, cred_setresgid(&c, K, 0, K));
}

static void test_root_setgid_sets_all_three(void **state)
{
	(void)state;
	struct cred c = cred_root();

	assert_int_equal(cred_setgid(&c, 50), 0);
	assert_gids(&c, 50, 50, 50);
	assert_int_equal(cred_setresgid(&c, K, 60, K), 0);
	assert_gids(&c, 50, 60, 50);
	assert_uids(&c, 0, 0, 0);
}

static void test_setres_checks_every_id_first(void **state)
{
	(void)state;
	struct cred c = cred_user(1000, 50);

	c.cr_suid = 2000;
	/* r and e are allowed (held ids), s is not: nothing may change. */
	refused(&c, CRED_EPERM, cred_setresuid(&c, 2000, 1000, 7));
	refused(&c, CRED_EPERM, cred_setresgid(&c, 50, 50, 7));
	assert_int_equal(cred_setresuid(&c, 2000, 1000, 1000), 0);   /* a swap among its own */
	assert_uids(&c, 2000, 1000, 1000);
	assert_int_equal(cred_setresuid(&c, K, K, K), 0);             /* all kept: a no-op */
	assert_uids(&c, 2000, 1000, 1000);
}

static void test_root_setres_any(void **state)
{
	(void)state;
	struct cred c = cred_root();

	assert_int_equal(cred_setresuid(&c, 5, 6, 7), 0);
	assert_uids(&c, 5, 6, 7);
	refused(&c, CRED_EPERM, cred_setresuid(&c, 0, K, K));        /* euid 6 now: no privilege */
	assert_int_equal(cred_setresuid(&c, 7, 7, K), 0);
	assert_uids(&c, 7, 7, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_and_user),
		cmocka_unit_test(test_root_setuid_is_for_good),
		cmocka_unit_test(test_setuid_minus_one_is_einval),
		cmocka_unit_test(test_seteuid_and_back_by_the_saved_id),
		cmocka_unit_test(test_user_setuid_moves_only_the_effective_id),
		cmocka_unit_test(test_user_setgid),
		cmocka_unit_test(test_root_setgid_sets_all_three),
		cmocka_unit_test(test_setres_checks_every_id_first),
		cmocka_unit_test(test_root_setres_any),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
