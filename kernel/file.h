/*
 * file.h - open files of user processes.
 *
 * A struct file is what a descriptor names: an ops table and a reference
 * count (descriptors in any process, dup'd or inherited, share one).
 * Reads and writes move bytes between a kernel buffer and the file; the
 * system call layer (kernel/syscall.c) copies them to and from the user.
 * Files so far: the console (fds 0, 1 of a process started from it), its
 * error stream (fd 2), /dev/null and /dev/zero, the boot archive's files
 * (read-only), and pipes (kernel/pipe.c).
 */
#ifndef SONDE_FILE_H
#define SONDE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct file;

struct file_ops {
	/* fo_read/fo_write: bytes moved (0 = end of file), or a negative errno.  Thread context; may sleep. */
	int64_t (*fo_read)(struct file *f, void *buf, size_t n);
	int64_t (*fo_write)(struct file *f, const void *buf, size_t n);
	void (*fo_release)(struct file *f);          /* the last reference went away (may be NULL) */
	uint64_t (*fo_size)(struct file *f);         /* bytes, for fstat and lseek (may be NULL: 0, no seeking) */
	bool fo_tty;                                 /* a terminal: TCGETS succeeds, isatty() is true */
	bool fo_zero;                                /* /dev/zero: mmap of it is anonymous memory */
	uint32_t fo_mode;                            /* st_mode's file type (S_IFCHR, ...) */
};

struct file {
	const struct file_ops *f_ops;
	int f_refs;                                  /* atomic */
	uint64_t f_off;
	void *f_priv;
};

#define FILE_S_IFCHR 0020000
#define FILE_S_IFREG 0100000
#define FILE_S_IFIFO 0010000

/* file_console/file_console_err: a new reference to the console (in and out) or its error stream. */
struct file *file_console(void);
struct file *file_console_err(void);
/*
 * file_open: open path for a process: "/dev/null", "/dev/zero",
 * "/dev/console", or a file of the boot archive (read-only).  flags are
 * open(2)'s (O_RDONLY, O_WRONLY, O_RDWR; others ignored).  Returns 0 with
 * a new reference in *out, or -ENOENT, -EROFS (writing a boot file),
 * -ENOMEM.  Thread context.
 */
int file_open(const char *path, int flags, struct file **out);

/*
 * pipe_create: a new pipe (kernel/pipe.c): its read end in *rd and its
 * write end in *wr, one reference each.  0 or -ENOMEM.  Thread context.
 */
int pipe_create(struct file **rd, struct file **wr);

/* file_ref: another reference to f (returned); file_unref drops one (NULL is fine).  Any thread. */
struct file *file_ref(struct file *f);
void file_unref(struct file *f);

#endif
