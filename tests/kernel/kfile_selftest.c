/*
 * kfile_selftest.c - in-kernel self-tests of the boot-time files: the
 * built-in script library is there, lookups ignore a leading "/" and "./",
 * directories are not files, and listing is in name order.  (The archive
 * reader itself is tested on the host: tests/unit/kernel_kfile_test.c.)
 */
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/selftest.h"

SELFTEST(kfile_builtin_library)
{
	const struct kfile *kf = kfile_lookup("/scripts/hello.d");

	ST_ASSERT(kf != NULL);
	if (kf == NULL)
		return;
	ST_ASSERT(strcmp(kf->kf_name, "scripts/hello.d") == 0);
	ST_ASSERT(kf->kf_size > 2 && memcmp(kf->kf_data, "/*", 2) == 0);
	ST_ASSERT(kfile_lookup("scripts/hello.d") == kf);
	ST_ASSERT(kfile_lookup(".//scripts/hello.d") == kf);
}

SELFTEST(kfile_missing_and_directories)
{
	ST_ASSERT(kfile_lookup("/scripts/no-such-script.d") == NULL);
	ST_ASSERT(kfile_lookup("/scripts") == NULL);
	ST_ASSERT(kfile_lookup("scripts/") == NULL);
	ST_ASSERT(kfile_lookup("") == NULL);
	ST_ASSERT(kfile_lookup("/") == NULL);
}

struct kfile_walk {
	const char *kw_prev;
	int kw_count;
	int kw_stop_after;
	bool kw_sorted;
};

static bool kfile_walk_one(const struct kfile *kf, void *arg)
{
	struct kfile_walk *w = arg;

	if (w->kw_prev != NULL && strcmp(w->kw_prev, kf->kf_name) >= 0)
		w->kw_sorted = false;
	w->kw_prev = kf->kf_name;
	return ++w->kw_count != w->kw_stop_after;
}

SELFTEST(kfile_foreach_in_order)
{
	struct kfile_walk all = { .kw_sorted = true };
	struct kfile_walk two = { .kw_sorted = true, .kw_stop_after = 2 };

	ST_ASSERT(kfile_foreach(kfile_walk_one, &all));
	ST_ASSERT(all.kw_sorted);
	ST_ASSERT(all.kw_count >= 6);                 /* the scripts directory holds six or more */
	ST_ASSERT(!kfile_foreach(kfile_walk_one, &two));
	ST_ASSERT(two.kw_count == 2);
}
