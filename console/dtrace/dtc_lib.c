/*
 * dtc_lib.c - the D library dtrace hands to the compiler.
 *
 * DTrace compiles every file of its library directory (/usr/lib/dtrace)
 * before a program; Sonde's compiler does the same with the files it is
 * given (dlang/dt_lib.c).  The files are the image's built-in
 * usr/lib/dtrace/NAME.d (dlang/lib and arch/<isa>/dlib of the source tree,
 * kernel/kfile.h), or those of the directory -x libdir=DIR names, which may
 * come in a boot module; then those of each -L DIR, in command-line order
 * (dtrace(1M): -L adds a directory to the library's search path).  A file
 * whose name an earlier directory has already given is left out, so the
 * same library in two directories is not declared twice.  Within a
 * directory the files are taken in name order, as DTrace does without
 * depends_on pragmas.  The texts stay in the file table; only the array of
 * them is allocated here.
 *
 * Context: the consumer's thread.
 *
 * Tests: tests/d/dlib
 */
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

#define DTC_LIBDIR "usr/lib/dtrace"

struct lib_walk {
	const char *lw_dir;          /* without a leading "/" */
	size_t lw_len;
	dt_libsrc *lw_libs;          /* NULL: count only */
	uint32_t lw_n;
	uint32_t lw_first;           /* lw_libs[0..lw_first): earlier directories' */
};

/* lib_member: is kf directly in the directory, and a NAME.d file? */
static bool lib_member(const struct lib_walk *w, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(name, w->lw_dir, w->lw_len) != 0 || name[w->lw_len] != '/')
		return false;
	name += w->lw_len + 1;
	n -= w->lw_len + 1;
	return n > 2 && strchr(name, '/') == NULL && strcmp(name + n - 2, ".d") == 0;
}

/* lib_base: the part of path after its last "/". */
static const char *lib_base(const char *path)
{
	const char *base = path;

	for (; *path != 0; path++)
		if (*path == '/')
			base = path + 1;
	return base;
}

/* lib_seen: did an earlier directory give a file of this name? */
static bool lib_seen(const struct lib_walk *w, const char *name)
{
	for (uint32_t i = 0; w->lw_libs != NULL && i < w->lw_first; i++)
		if (strcmp(lib_base(w->lw_libs[i].ls_name), lib_base(name)) == 0)
			return true;
	return false;
}

static bool lib_visit(const struct kfile *kf, void *arg)
{
	struct lib_walk *w = arg;

	if (!lib_member(w, kf->kf_name) || lib_seen(w, kf->kf_name))
		return true;
	if (w->lw_libs != NULL)
		w->lw_libs[w->lw_n] = (dt_libsrc){ .ls_name = kf->kf_name,
		                                    .ls_src = (const char *)kf->kf_data,
		                                    .ls_len = (size_t)kf->kf_size };
	w->lw_n++;
	return true;
}

/* lib_dir: walk one directory's files (counting, or filling w->lw_libs). */
static void lib_dir(struct lib_walk *w, const char *dir)
{
	w->lw_dir = kfile_path_trim(dir);
	w->lw_len = strlen(w->lw_dir);
	while (w->lw_len > 0 && w->lw_dir[w->lw_len - 1] == '/')
		w->lw_len--;
	w->lw_first = w->lw_n;
	kfile_foreach(lib_visit, w);
}

/* lib_dirs: every directory in order: the library's, then each -L one. */
static void lib_dirs(struct lib_walk *w, const struct dtc *d)
{
	lib_dir(w, d->dc_libdir != NULL ? d->dc_libdir : DTC_LIBDIR);
	for (int i = 0; i < d->dc_nlibdirs; i++)
		lib_dir(w, d->dc_libdirs[i]);
}

uint32_t dtc_lib_collect(const struct dtc *d, dt_libsrc **libs)
{
	struct lib_walk w = { .lw_dir = NULL };

	*libs = NULL;
	lib_dirs(&w, d);                 /* counting: duplicates counted too, an upper bound */
	if (w.lw_n == 0)
		return 0;
	uint32_t n = w.lw_n;
	w.lw_libs = kmalloc(n * sizeof(dt_libsrc));
	if (w.lw_libs == NULL)
		return 0;
	w.lw_n = 0;
	lib_dirs(&w, d);
	*libs = w.lw_libs;
	return w.lw_n < n ? w.lw_n : n;
}
