/*
 * kfile_tar.c - reading ustar archives (boot modules) safely.
 *
 * A ustar archive is a sequence of 512-byte blocks.  Each member is one
 * header block followed by its contents, padded to a whole block; the
 * archive ends with (at least) one block of zeros.  The header fields used
 * here (POSIX.1-1988 ustar, also written by GNU tar and Python's tarfile):
 *
 *   offset  size  field
 *        0   100  name       NUL-terminated unless it fills the field
 *      124    12  size       octal, NUL or space terminated
 *      148     8  chksum     octal: sum of all 512 header bytes, with the
 *                            chksum field itself counted as 8 spaces
 *      156     1  typeflag   '0' or NUL: file; '5': directory; 'x', 'g':
 *                            pax records; 'L', 'K': GNU long names; ...
 *      257     6  magic      "ustar\0" (POSIX) or "ustar " (GNU)
 *      345   155  prefix     if not empty, the path is prefix "/" name
 *
 * The archive comes from outside the kernel, so nothing in it is trusted:
 * every header is checked before anything is used, every size is checked
 * against what is left of the archive (without overflow), and the whole
 * archive is checked before a single file is handed out.  Pure code, no
 * kernel calls: tests/unit/kernel_kfile_test.c runs it on the host.
 *
 * Tests: tests/unit/kernel_kfile_test.c; self-tests kfile_*
 */
#include "kernel/kfile.h"
#include "kernel/klib.h"

#define TAR_BLOCK       512
#define TAR_NAME        0
#define TAR_SIZE        124
#define TAR_CHKSUM      148
#define TAR_TYPE        156
#define TAR_MAGIC       257
#define TAR_PREFIX      345

/* tar_field: a header field as a NUL-terminated string in buf (fields need not be terminated). */
static void tar_field(const unsigned char *h, size_t off, size_t size, char *buf)
{
	size_t n = 0;

	while (n < size && h[off + n] != 0) {
		buf[n] = (char)h[off + n];
		n++;
	}
	buf[n] = 0;
}

/*
 * tar_octal: parse an octal field: optional leading spaces, digits, then
 * only NULs or spaces.  Returns false for anything else (including GNU's
 * base-256 form for huge sizes, which no boot module needs).
 */
static bool tar_octal(const unsigned char *h, size_t off, size_t size, uint64_t *out)
{
	size_t i = 0;
	uint64_t v = 0;
	int digits = 0;

	while (i < size && h[off + i] == ' ')
		i++;
	for (; i < size && h[off + i] >= '0' && h[off + i] <= '7'; i++, digits++) {
		if (v >> 60)
			return false;
		v = v * 8 + (uint64_t)(h[off + i] - '0');
	}
	for (; i < size; i++)
		if (h[off + i] != 0 && h[off + i] != ' ')
			return false;
	*out = v;
	return digits > 0;
}

static bool tar_block_is_zero(const unsigned char *h)
{
	for (int i = 0; i < TAR_BLOCK; i++)
		if (h[i] != 0)
			return false;
	return true;
}

bool kfile_is_tar(const void *data, uint64_t len)
{
	return len >= TAR_BLOCK && memcmp((const unsigned char *)data + TAR_MAGIC, "ustar", 5) == 0;
}

/* tar_check_sum: does the chksum field match the header's bytes? */
static bool tar_check_sum(const unsigned char *h, uint64_t *want, uint64_t *got)
{
	uint64_t sum = 0;

	for (int i = 0; i < TAR_BLOCK; i++)
		sum += (i >= TAR_CHKSUM && i < TAR_CHKSUM + 8) ? ' ' : h[i];
	*got = sum;
	return tar_octal(h, TAR_CHKSUM, 8, want) && *want == sum;
}

/* tar_name: the member's full path (prefix "/" name), trimmed of leading "/" and "./". */
static void tar_name(const unsigned char *h, char *out)
{
	char prefix[156], name[101];

	tar_field(h, TAR_PREFIX, 155, prefix);
	tar_field(h, TAR_NAME, 100, name);
	if (prefix[0] != 0)
		ksnprintf(out, KFILE_NAME_MAX, "%s/%s", prefix, name);
	else
		ksnprintf(out, KFILE_NAME_MAX, "%s", name);
	const char *t = kfile_path_trim(out);
	memmove(out, t, strlen(t) + 1);
}

/*
 * tar_header_check: validate the header at off (name: its member's path,
 * for the messages).  On success stores the member's size and returns true;
 * else writes the reason to err.
 */
static bool tar_header_check(const unsigned char *h, const char *name, uint64_t off, uint64_t len,
                             uint64_t *size, char *err, size_t errsize)
{
	uint64_t want, got;

	if (memcmp(h + TAR_MAGIC, "ustar", 5) != 0) {
		ksnprintf(err, errsize, "not a ustar header at offset %lu (bad magic)", off);
		return false;
	}
	if (!tar_check_sum(h, &want, &got)) {
		ksnprintf(err, errsize, "bad header checksum at offset %lu (computed %lu)", off, got);
		return false;
	}
	if (!tar_octal(h, TAR_SIZE, 12, size)) {
		ksnprintf(err, errsize, "member %s: bad size field at offset %lu", name, off);
		return false;
	}
	uint64_t room = len - off - TAR_BLOCK;   /* caller made sure off + 512 <= len */
	if (*size > room) {
		ksnprintf(err, errsize, "truncated: member %s needs %lu bytes at offset %lu, archive has %lu",
		          name, *size, off + TAR_BLOCK, len);
		return false;
	}
	return true;
}

/* tar_is_file: does this header describe a regular file (with a usable name)? */
static bool tar_is_file(const unsigned char *h)
{
	return h[TAR_TYPE] == '0' || h[TAR_TYPE] == 0 || h[TAR_TYPE] == '7';
}

/* tar_pass: one walk over the archive; calls fn only if fn != NULL.  Returns files or -1. */
static int tar_pass(const unsigned char *p, uint64_t len, kfile_tar_fn *fn, void *arg,
                    char *err, size_t errsize)
{
	char name[KFILE_NAME_MAX];
	uint64_t off = 0, size;
	int files = 0;

	for (;;) {
		if (len - off < TAR_BLOCK) {
			ksnprintf(err, errsize, "truncated: no end-of-archive block (%lu bytes)", len);
			return -1;
		}
		const unsigned char *h = p + off;
		if (tar_block_is_zero(h))
			return files;
		tar_name(h, name);
		if (!tar_header_check(h, name, off, len, &size, err, errsize))
			return -1;
		if (tar_is_file(h)) {
			if (name[0] == 0) {
				ksnprintf(err, errsize, "member with an empty name at offset %lu", off);
				return -1;
			}
			if (fn != NULL)
				fn(name, h + TAR_BLOCK, size, arg);
			files++;
		}
		off += TAR_BLOCK + ALIGN_UP(size, TAR_BLOCK);
		if (off > len) {              /* the padding of the last member is missing */
			ksnprintf(err, errsize, "truncated: no end-of-archive block (%lu bytes)", len);
			return -1;
		}
	}
}

int kfile_tar_walk(const void *data, uint64_t len, kfile_tar_fn *fn, void *arg,
                   char *err, size_t errsize)
{
	if (!kfile_is_tar(data, len)) {
		ksnprintf(err, errsize, "not a ustar archive");
		return -1;
	}
	if (tar_pass(data, len, NULL, arg, err, errsize) < 0)
		return -1;
	return tar_pass(data, len, fn, arg, err, errsize);
}

const char *kfile_path_trim(const char *path)
{
	for (;;) {
		if (path[0] == '/')
			path++;
		else if (path[0] == '.' && path[1] == '/')
			path += 2;
		else
			return path;
	}
}
