/*
 * kfile.c - the boot-time file table (see kfile.h for what it holds).
 *
 * One sorted array of struct kfile, built once at boot and read-only after
 * that, so lookups need no lock.  Order of what follows: adding a file,
 * the built-in script library, boot modules, then lookup and listing.
 *
 * The built-in library is a table generated at build time from the scripts directory
 * by tools/gen_scripts.sh (build/kscripts.S): kfile_builtin[] and
 * kfile_builtin_count.  Module files point straight into the module's
 * memory through the direct map (pmem keeps module pages off the free
 * list); only their names are copied, because a tar header's name is not
 * a C string.
 *
 * Tests: self-tests kfile_* (tests/kernel/kfile_selftest.c)
 */
#include "kernel/boot.h"
#include "kernel/console.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"

#define KFILE_MAX 512

extern const struct kfile kfile_builtin[];       /* build/kscripts.S */
extern const uint64_t kfile_builtin_count;

static struct kfile kfiles[KFILE_MAX];
static int nkfiles;
static bool kfile_full_reported;

/* kfile_find: index of the file called name (already trimmed), or -1. */
static int kfile_find(const char *name)
{
	int lo = 0, hi = nkfiles - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		int c = strcmp(kfiles[mid].kf_name, name);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* kfile_add: insert (or replace) a file, keeping the array sorted by name. */
static void kfile_add(const char *name, const unsigned char *data, uint64_t size)
{
	int i = kfile_find(name);

	if (i >= 0) {
		kfiles[i].kf_name = name;
		kfiles[i].kf_data = data;
		kfiles[i].kf_size = size;
		return;
	}
	if (nkfiles == KFILE_MAX) {
		if (!kfile_full_reported)
			kprintf_err("kfile: more than %d files; %s and later ones are left out\n",
			            KFILE_MAX, name);
		kfile_full_reported = true;
		return;
	}
	for (i = nkfiles; i > 0 && strcmp(kfiles[i - 1].kf_name, name) > 0; i--)
		kfiles[i] = kfiles[i - 1];
	kfiles[i] = (struct kfile){ .kf_name = name, .kf_data = data, .kf_size = size };
	nkfiles++;
}

/* --- boot modules -------------------------------------------------------- */

/* kfile_add_copy: kfile_add under a heap copy of name (a tar walk's name lives only for the call). */
static void kfile_add_copy(const char *name, const unsigned char *data, uint64_t size, void *arg)
{
	char *copy = kstrdup(name);

	(void)arg;
	if (copy == NULL)
		kprintf_err("kfile: out of memory for the name %s\n", name);
	else
		kfile_add(copy, data, size);
}

/* kfile_module_name: a plain module's file name: its module string's first word, trimmed. */
static const char *kfile_module_name(const struct boot_module *m, char *buf, size_t size)
{
	size_t n = 0;
	const char *s = kfile_path_trim(m->bmod_name);

	while (s[n] != 0 && s[n] != ' ' && n + 1 < size) {
		buf[n] = s[n];
		n++;
	}
	buf[n] = 0;
	return n > 0 ? buf : "initrd";
}

static void kfile_module_add(int i, const struct boot_module *m)
{
	const unsigned char *data = phys_to_virt(m->bmod_start);
	uint64_t len = m->bmod_end - m->bmod_start;
	char name[64], err[160];

	if (!kfile_is_tar(data, len)) {
		kfile_add_copy(kfile_module_name(m, name, sizeof(name)), data, len, NULL);
		return;
	}
	if (kfile_tar_walk(data, len, kfile_add_copy, NULL, err, sizeof(err)) < 0)
		kprintf_err("kfile: boot module %d (%s, %lu bytes): %s; module skipped\n",
		            i, m->bmod_name, len, err);
}

void kfile_init(void)
{
	for (uint64_t i = 0; i < kfile_builtin_count; i++)
		kfile_add(kfile_builtin[i].kf_name, kfile_builtin[i].kf_data, kfile_builtin[i].kf_size);
	for (int i = 0; i < boot_info.bi_nmod; i++)
		kfile_module_add(i, &boot_info.bi_mod[i]);
}

/* --- lookup and listing -------------------------------------------------- */

const struct kfile *kfile_lookup(const char *path)
{
	int i = kfile_find(kfile_path_trim(path));

	return i < 0 ? NULL : &kfiles[i];
}

bool kfile_foreach(kfile_fn *fn, void *arg)
{
	for (int i = 0; i < nkfiles; i++)
		if (!fn(&kfiles[i], arg))
			return false;
	return true;
}
