/*
 * kfile.h - boot-time files: a small read-only file table.
 *
 * Files come from two places, both fixed once the kernel is up:
 *   - the built-in script library, the scripts directory (NAME.d files) of the source tree, compiled
 *     into the image (tools/gen_scripts.sh) and named "scripts/NAME.d";
 *   - boot modules (QEMU -initrd, GRUB module2): a module that is a ustar
 *     archive contributes each regular file under its path in the archive;
 *     any other module is one file named by its module string.
 * A module file with the same name as a built-in one replaces it.
 *
 * Names are kept without a leading "/" or "./", and lookups drop those too,
 * so "/scripts/hello.d", "scripts/hello.d" and "./scripts/hello.d" are the
 * same file, and a relative path such as "x/y.d" finds the archive member
 * stored as "x/y.d".  There are no directories as such: "scripts" is a
 * directory because some file's name starts with "scripts/".
 *
 * The data stays where the boot loader put it (or in the image's rodata) and
 * is never written.  It is not NUL-terminated: use kf_size.
 */
#ifndef SONDE_KFILE_H
#define SONDE_KFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kfile {
	const char *kf_name;         /* "scripts/hello.d": no leading "/" */
	const unsigned char *kf_data;
	uint64_t kf_size;            /* bytes */
};

/*
 * kfile_init: build the table from the built-in library and the boot
 * modules.  A bad or truncated archive is reported on the error stream
 * (kprintf_err) and skipped as a whole; the kernel boots on.  Boot, once,
 * after kheap_init().
 */
void kfile_init(void);

/*
 * kfile_lookup: the file called path ("/scripts/hello.d", "x/y.d"), or NULL.
 * Thread context (not probe context).
 */
const struct kfile *kfile_lookup(const char *path);

/*
 * kfile_foreach: call fn(file, arg) for every file, in name order; stops
 * early and returns false if fn returns false.  Thread context.
 */
typedef bool kfile_fn(const struct kfile *kf, void *arg);
bool kfile_foreach(kfile_fn *fn, void *arg);

/* kfile_path_trim: path without its leading "/" and "./" parts ("/a/b" -> "a/b"). */
const char *kfile_path_trim(const char *path);

/*
 * kfile_tar_walk: check a ustar archive of len bytes at data and call
 * fn(name, data, size, arg) for each regular file in it; directories are
 * skipped, as are pax and GNU extension records (their contents only).
 * Every header is checked (magic, checksum, octal fields, name, that the
 * contents fit) and so is the end-of-archive block.  The walk runs twice:
 * first without calling fn, so a bad archive contributes no file at all.
 * Returns the number of files, or -1 with a one-line reason in err
 * ("truncated: member x.d needs 1200 bytes at offset 512, archive has
 * 1024").  name is NUL-terminated in a buffer that lives only for the call.
 * Pure code, host-testable (kernel/kfile_tar.c).
 */
#define KFILE_NAME_MAX 256           /* prefix (155) + '/' + name (100), NUL */
typedef void kfile_tar_fn(const char *name, const unsigned char *data, uint64_t size, void *arg);
int kfile_tar_walk(const void *data, uint64_t len, kfile_tar_fn *fn, void *arg,
                   char *err, size_t errsize);

/* kfile_is_tar: do these bytes start like a ustar archive ("ustar" magic at 257)? */
bool kfile_is_tar(const void *data, uint64_t len);

#endif
