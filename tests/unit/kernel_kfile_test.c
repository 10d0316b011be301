/*
 * kernel_kfile_test.c - the ustar reader behind boot modules (kernel/kfile_tar.c).
 *
 * Each test builds a small archive in memory, header by header, breaks it
 * in one way, and checks that kfile_tar_walk() either lists exactly the
 * files in it or refuses the whole archive with the right reason and
 * without handing out a single file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "kernel/kfile.h"
#include "kernel/klib.h"

#define BLK 512

/* An archive under construction. */
struct tar {
	unsigned char t_buf[16 * BLK];
	size_t t_len;
};

static void hdr_sum(unsigned char *h)
{
	unsigned sum = 0;

	memset(h + 148, ' ', 8);
	for (int i = 0; i < BLK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);   /* six digits, NUL, then the space */
	h[155] = ' ';
}

/* tar_member: append a header (type, name, optional prefix) and size bytes of contents. */
static unsigned char *tar_member(struct tar *t, char type, const char *prefix, const char *name,
                                 const char *data, size_t size)
{
	unsigned char *h = t->t_buf + t->t_len;

	memset(h, 0, BLK);
	memcpy(h, name, strnlen(name, 100));
	snprintf((char *)h + 100, 8, "%07o", 0644);
	snprintf((char *)h + 124, 12, "%011o", (unsigned)size);
	h[156] = (unsigned char)type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	if (prefix != NULL)
		memcpy(h + 345, prefix, strlen(prefix));
	hdr_sum(h);
	t->t_len += BLK;
	if (size > 0) {
		memset(t->t_buf + t->t_len, 0, ALIGN_UP(size, BLK));
		memcpy(t->t_buf + t->t_len, data, size);
		t->t_len += ALIGN_UP(size, BLK);
	}
	return h;
}

static void tar_end(struct tar *t)
{
	memset(t->t_buf + t->t_len, 0, 2 * BLK);
	t->t_len += 2 * BLK;
}

/* What the walk handed out. */
struct seen {
	int s_n;
	char s_name[8][KFILE_NAME_MAX];
	char s_data[8][64];
};

static void collect(const char *name, const unsigned char *data, uint64_t size, void *arg)
{
	struct seen *s = arg;

	snprintf(s->s_name[s->s_n], KFILE_NAME_MAX, "%s", name);
	snprintf(s->s_data[s->s_n], 64, "%.*s", (int)size, (const char *)data);
	s->s_n++;
}

static struct tar t;
static struct seen seen;
static char err[160];

static int walk(void)
{
	memset(&seen, 0, sizeof(seen));
	err[0] = 0;
	return kfile_tar_walk(t.t_buf, t.t_len, collect, &seen, err, sizeof(err));
}

static int setup(void **state)
{
	(void)state;
	memset(&t, 0, sizeof(t));
	return 0;
}

static void test_files_and_directories(void **state)
{
	(void)state;
	tar_member(&t, '5', NULL, "x/", NULL, 0);
	tar_member(&t, '0', NULL, "x/y.d", "BEGIN {}\n", 9);
	tar_member(&t, 0, NULL, "top.txt", "hi\n", 3);
	tar_end(&t);
	assert_int_equal(walk(), 2);
	assert_int_equal(seen.s_n, 2);
	assert_string_equal(seen.s_name[0], "x/y.d");
	assert_string_equal(seen.s_data[0], "BEGIN {}\n");
	assert_string_equal(seen.s_name[1], "top.txt");
	assert_string_equal(seen.s_data[1], "hi\n");
}

static void test_names_prefix_trim_and_full_field(void **state)
{
	char full[101];

	(void)state;
	memset(full, 'n', 100);
	full[100] = 0;
	tar_member(&t, '0', "deep/dir", "f.d", "a", 1);
	tar_member(&t, '0', NULL, "./rel/g.d", "b", 1);
	tar_member(&t, '0', NULL, "/abs/h.d", "c", 1);
	tar_member(&t, '0', NULL, full, "d", 1);        /* 100 bytes, no NUL in the field */
	tar_end(&t);
	assert_int_equal(walk(), 4);
	assert_string_equal(seen.s_name[0], "deep/dir/f.d");
	assert_string_equal(seen.s_name[1], "rel/g.d");
	assert_string_equal(seen.s_name[2], "abs/h.d");
	assert_string_equal(seen.s_name[3], full);
}

static void test_empty_file_and_empty_archive(void **state)
{
	(void)state;
	tar_end(&t);                                     /* only zeros: no magic, so no archive */
	assert_int_equal(walk(), -1);
	setup(NULL);
	tar_member(&t, '0', NULL, "empty", NULL, 0);
	tar_end(&t);
	assert_int_equal(walk(), 1);
	assert_string_equal(seen.s_data[0], "");
}

static void test_pax_record_skipped(void **state)
{
	(void)state;
	tar_member(&t, 'x', NULL, "PaxHeaders/f", "20 path=longer/f\n", 17);
	tar_member(&t, '0', NULL, "f", "z", 1);
	tar_end(&t);
	assert_int_equal(walk(), 1);
	assert_string_equal(seen.s_name[0], "f");
}

static void test_bad_checksum(void **state)
{
	(void)state;
	tar_member(&t, '0', NULL, "a", "1", 1);
	unsigned char *h = tar_member(&t, '0', NULL, "b", "2", 1);
	tar_end(&t);
	h[0] = 'c';                                      /* the sum no longer matches */
	assert_int_equal(walk(), -1);
	assert_int_equal(seen.s_n, 0);                   /* not even the good first member */
	assert_non_null(strstr(err, "bad header checksum at offset 1024"));
}

static void test_bad_magic_later(void **state)
{
	(void)state;
	tar_member(&t, '0', NULL, "a", "1", 1);
	unsigned char *h = tar_member(&t, '0', NULL, "b", "2", 1);
	tar_end(&t);
	memcpy(h + 257, "xxxxx", 5);
	hdr_sum(h);
	assert_int_equal(walk(), -1);
	assert_int_equal(seen.s_n, 0);
	assert_non_null(strstr(err, "bad magic"));
}

static void test_bad_size_field(void **state)
{
	(void)state;
	unsigned char *h = tar_member(&t, '0', NULL, "a", "1", 1);
	tar_end(&t);
	memcpy(h + 124, "00000000x01", 11);
	hdr_sum(h);
	assert_int_equal(walk(), -1);
	assert_non_null(strstr(err, "member a: bad size field"));
	h[124 + 8] = '9';                               /* not an octal digit either */
	hdr_sum(h);
	assert_int_equal(walk(), -1);
	memset(h + 124, ' ', 12);                        /* no digits at all */
	hdr_sum(h);
	assert_int_equal(walk(), -1);
}

static void test_truncated_contents(void **state)
{
	(void)state;
	tar_member(&t, '0', NULL, "big", "0123456789", 10);
	t.t_len = BLK + 5;                               /* cut in the middle of the data */
	assert_int_equal(walk(), -1);
	assert_int_equal(seen.s_n, 0);
	assert_non_null(strstr(err, "truncated: member big needs 10 bytes"));
}

static void test_huge_size_no_overflow(void **state)
{
	(void)state;
	unsigned char *h = tar_member(&t, '0', NULL, "huge", NULL, 0);
	tar_end(&t);
	memcpy(h + 124, "77777777777", 11);              /* 8 GiB - 1 */
	hdr_sum(h);
	assert_int_equal(walk(), -1);
	assert_non_null(strstr(err, "truncated"));
}

static void test_missing_end_block(void **state)
{
	(void)state;
	tar_member(&t, '0', NULL, "a", "1", 1);          /* no end-of-archive block */
	assert_int_equal(walk(), -1);
	assert_non_null(strstr(err, "no end-of-archive block"));
	assert_int_equal(seen.s_n, 0);
	t.t_len = BLK + 1;                               /* padding of the last member cut */
	assert_int_equal(walk(), -1);
}

static void test_not_tar(void **state)
{
	(void)state;
	memcpy(t.t_buf, "hello", 5);
	t.t_len = 5;
	assert_false(kfile_is_tar(t.t_buf, t.t_len));
	assert_int_equal(walk(), -1);
	assert_string_equal(err, "not a ustar archive");
	t.t_len = 4 * BLK;                               /* long enough, but zeros */
	assert_false(kfile_is_tar(t.t_buf, t.t_len));
	assert_int_equal(walk(), -1);
}

static void test_empty_name(void **state)
{
	(void)state;
	tar_member(&t, '0', NULL, "./", "x", 1);
	tar_end(&t);
	assert_int_equal(walk(), -1);
	assert_non_null(strstr(err, "empty name"));
}

static void test_path_trim(void **state)
{
	(void)state;
	assert_string_equal(kfile_path_trim("/scripts/hello.d"), "scripts/hello.d");
	assert_string_equal(kfile_path_trim("./x/y.d"), "x/y.d");
	assert_string_equal(kfile_path_trim("//.//./a"), "a");
	assert_string_equal(kfile_path_trim("../a"), "../a");
	assert_string_equal(kfile_path_trim(".hidden"), ".hidden");
	assert_string_equal(kfile_path_trim("/"), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_files_and_directories, setup),
		cmocka_unit_test_setup(test_names_prefix_trim_and_full_field, setup),
		cmocka_unit_test_setup(test_empty_file_and_empty_archive, setup),
		cmocka_unit_test_setup(test_pax_record_skipped, setup),
		cmocka_unit_test_setup(test_bad_checksum, setup),
		cmocka_unit_test_setup(test_bad_magic_later, setup),
		cmocka_unit_test_setup(test_bad_size_field, setup),
		cmocka_unit_test_setup(test_truncated_contents, setup),
		cmocka_unit_test_setup(test_huge_size_no_overflow, setup),
		cmocka_unit_test_setup(test_missing_end_block, setup),
		cmocka_unit_test_setup(test_not_tar, setup),
		cmocka_unit_test_setup(test_empty_name, setup),
		cmocka_unit_test_setup(test_path_trim, setup),
	};
	return cmocka_run_group_tests_name("kfile_tar", tests, NULL, NULL);
}
