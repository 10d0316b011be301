/*
 * dtc_lib.c - the D library dtrace hands to the compiler.
 *
 * DTrace compiles every file of its library directory (/usr/lib/dtrace)
 * before a program; Sonde's compiler does the same with the files it is
 * given (dlang/dt_lib.c).  The files are the image's built-in
 * usr/lib/dtrace/NAME.d (dlang/lib and arch/<isa>/dlib of the source tree,
 * kernel/kfile.h), or those of the directory -x libdir=DIR names, which may
 * come in a boot module.  They are taken in name order, as DTrace does
 * without depends_on pragmas.  The texts stay in the file table; only the
 * array of them is allocated here.
 *
 * Context: the consumer's thread.
 *
 * Tests: tests/d/dlib
 */
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "userland/dtrace/dtc.h"

#define DTC_LIBDIR "usr/lib/dtrace"

struct lib_walk {
	const char *lw_dir;          /* without a leading "/" */
	size_t lw_len;
	dt_libsrc *lw_libs;          /* NULL: count only */
	uint32_t lw_n;
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

static bool lib_visit(const struct kfile *kf, void *arg)
{
	struct lib_walk *w = arg;

	if (!lib_member(w, kf->kf_name))
		return true;
	if (w->lw_libs != NULL)
		w->lw_libs[w->lw_n] = (dt_libsrc){ .ls_name = kf->kf_name,
		                                    .ls_src = (const char *)kf->kf_data,
		                                    .ls_len = (size_t)kf->kf_size };
	w->lw_n++;
	return true;
}

uint32_t dtc_lib_collect(const char *libdir, dt_libsrc **libs)
{
	struct lib_walk w = { .lw_dir = kfile_path_trim(libdir != NULL ? libdir : DTC_LIBDIR) };

	w.lw_len = strlen(w.lw_dir);
	while (w.lw_len > 0 && w.lw_dir[w.lw_len - 1] == '/')
		w.lw_len--;
	*libs = NULL;
	kfile_foreach(lib_visit, &w);
	if (w.lw_n == 0)
		return 0;
	uint32_t n = w.lw_n;
	w.lw_libs = kmalloc(n * sizeof(dt_libsrc));
	if (w.lw_libs == NULL)
		return 0;
	w.lw_n = 0;
	kfile_foreach(lib_visit, &w);
	*libs = w.lw_libs;
	return w.lw_n < n ? w.lw_n : n;
}
