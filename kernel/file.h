/*
 * file.h - open files of user processes.
 *
 * A struct file is what a descriptor names: an ops table and a reference
 * count (descriptors in any process, dup'd or inherited, share one).
 * Reads and writes move bytes between a kernel buffer and the file; the
 * system call layer (kernel/syscall.c) copies them to and from the user.
 * Files so far: the console (fds 0, 1 of a process started from it), its
 * error stream (fd 2), /dev/null and /dev/zero, the boot archive's files
 * (read-only), directories (read with fo_readdir), /tmp's files
 * (kernel/tmpfs.c), /disk's (kernel/ext2.c) and pipes (kernel/pipe.c).  Paths are resolved by
 * kernel/vfs.c.
 */
#ifndef SONDE_FILE_H
#define SONDE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct file;

/* What stat(2) reports of a file (kernel/vfs.c turns it into Linux's struct stat). */
struct file_stat {
	uint32_t fs_mode;            /* type and permission bits (FILE_S_IFREG | 0644) */
	uint64_t fs_size;            /* bytes */
	uint64_t fs_ino;
	uint64_t fs_nlink;
};

#define FILE_NAME_MAX 256            /* one directory entry's name, NUL included */

/* One directory entry (getdents64). */
struct file_dirent {
	uint64_t de_ino;
	uint8_t de_type;             /* FILE_DT_* (Linux's d_type) */
	char de_name[FILE_NAME_MAX];
};
#define FILE_DT_FIFO 1
#define FILE_DT_CHR  2
#define FILE_DT_DIR  4
#define FILE_DT_REG  8

struct file_ops {
	/* fo_read/fo_write: bytes moved (0 = end of file), or a negative errno.  Thread context; may sleep. */
	int64_t (*fo_read)(struct file *f, void *buf, size_t n);
	int64_t (*fo_write)(struct file *f, const void *buf, size_t n);
	void (*fo_release)(struct file *f);          /* the last reference went away (may be NULL) */
	uint64_t (*fo_size)(struct file *f);         /* bytes, for fstat and lseek (may be NULL: 0, no seeking) */
	bool fo_tty;                                 /* a terminal: TCGETS succeeds, isatty() is true */
	bool fo_zero;                                /* /dev/zero: mmap of it is anonymous memory */
	uint32_t fo_mode;                            /* st_mode's file type (S_IFCHR, ...) */
	/* fo_readdir: a directory's entry number idx into *de: 1, 0 past the last, or a negative errno (may be NULL: not a directory). */
	int (*fo_readdir)(struct file *f, uint64_t idx, struct file_dirent *de);
	void (*fo_stat)(struct file *f, struct file_stat *st);   /* fstat (may be NULL: from fo_mode and fo_size) */
	/* fo_truncate: cut (or extend with zeros) to size bytes: 0 or a negative errno (may be NULL: -EINVAL). */
	int (*fo_truncate)(struct file *f, uint64_t size);
	/* fo_fsync: the file's data and metadata on the disk before it returns: 0 or a negative errno (may be NULL: nothing to write). */
	int (*fo_fsync)(struct file *f);
};

struct file {
	const struct file_ops *f_ops;
	int f_refs;                                  /* atomic */
	uint64_t f_off;
	void *f_priv;
	int f_flags;                                 /* open(2)'s flags (FILE_O_APPEND, ...), where they matter */
	/* What D's fileinfo_t reports of it (fds[fd]: dlang/lib/io.d); set by file_open. */
	char *f_path;                                /* the path it was opened by (normalized), or NULL */
	bool f_path_heap;                            /* f_path is kmalloc'd: file_unref frees it */
	const char *f_fs;                            /* its file system's type ("tmpfs"), or NULL */
	const char *f_mount;                         /* where that is mounted ("/tmp") */
	int f_oflags;                                /* open(2)'s flags as given */
};

#define FILE_S_IFCHR 0020000
#define FILE_S_IFREG 0100000
#define FILE_S_IFIFO 0010000
#define FILE_S_IFDIR 0040000
#define FILE_S_IFMT  0170000

/* open(2)'s flags, Linux's values (the C library translates newlib's). */
#define FILE_O_ACCMODE   03
#define FILE_O_WRONLY    01
#define FILE_O_CREAT     0100
#define FILE_O_EXCL      0200
#define FILE_O_TRUNC     01000
#define FILE_O_APPEND    02000
#define FILE_O_DIRECTORY 0200000
#define FILE_O_NONBLOCK  04000        /* /dev/link: a read with nothing to read fails with EAGAIN */

/* file_console/file_console_err: a new reference to the console (in and out) or its error stream. */
struct file *file_console(void);
struct file *file_console_err(void);
/*
 * file_open: open path for a process: "/dev/null", "/dev/zero",
 * "/dev/console", a file of the boot archive (read-only), a file under
 * /tmp (kernel/tmpfs.c), or a directory (read it with fo_readdir).  flags
 * are open(2)'s, Linux's values (FILE_O_*).  Returns 0 with a new
 * reference in *out, or -ENOENT, -EROFS (writing or creating outside
 * /tmp), -EISDIR, -ENOTDIR, -EEXIST, -ENOSPC, -ENAMETOOLONG, -ENOMEM.
 * Thread context (kernel/vfs.c).
 */
int file_open(const char *path, int flags, struct file **out);

/*
 * The path layer's other calls (kernel/vfs.c), Linux's semantics and
 * errors; only /tmp and /disk can change (elsewhere -EROFS).  Thread context.
 *   file_stat      stat(2) of path (links are not followed: there are none)
 *   file_unlink    unlink(2);  file_mkdir mkdir(2);  file_rmdir rmdir(2)
 *   file_rename    rename(2), within /tmp or /disk (-EXDEV between)
 *   file_read_all  the whole of a regular file, in a kmalloc'd buffer
 *                  (*len bytes, NUL after them) the caller frees
 */
int file_stat(const char *path, struct file_stat *st);
int file_unlink(const char *path);
int file_mkdir(const char *path);
int file_rmdir(const char *path);
int file_rename(const char *from, const char *to);
int file_read_all(const char *path, char **buf, size_t *len);

/*
 * file_name_path: nf, a struct file that is only a name, for the fsinfo
 * probes of calls that take a path (mkdir, unlink, ...): path normalized
 * into buf (size bytes) and its file system, as file_open names the files
 * it opens.  0, or -1 if the path does not normalize (nf is then nameless).
 */
int file_name_path(const char *path, struct file *nf, char *buf, size_t size);

/*
 * file_strerror: what strerror(3) says of err, a negative errno the calls
 * above return ("No such file or directory" for -ENOENT); "I/O error" for
 * one they never return.  Any context.
 */
const char *file_strerror(int err);

/*
 * vfs_disk_mount: mount /disk on the first registered block device that
 * holds an ext2 file system (kernel/ext2.c); none, or a bad one: a line
 * saying so (with verbose, or when there were disks) and no /disk.  Once,
 * at boot, in thread context, before any process runs.
 * file_sync: sync(2): every file system's changes on the disk (0 or -EIO).
 * file_fsync: fsync(2) of an open file: its data and metadata on the disk.
 */
void vfs_disk_mount(bool verbose);
int file_sync(void);
int file_fsync(struct file *f);

/* file_truncate: ftruncate(2) of an open file: 0, or -EINVAL (not a regular file), -ENOSPC.  Thread context. */
int file_truncate(struct file *f, uint64_t size);

/* file_stat_of: fstat(2) of an open file. */
void file_stat_of(struct file *f, struct file_stat *st);

/* file_boot_open: a boot archive file kf opened read-only (kernel/file.c, for the path layer). */
struct kfile;
int file_boot_open(const struct kfile *kf, struct file **out);
/* file_dev_open: "null", "zero" or "console" under /dev: a new reference, or NULL. */
struct file *file_dev_open(const char *name);

/*
 * pipe_create: a new pipe (kernel/pipe.c): its read end in *rd and its
 * write end in *wr, one reference each.  0 or -ENOMEM.  Thread context.
 */
int pipe_create(struct file **rd, struct file **wr);

/* file_ref: another reference to f (returned); file_unref drops one (NULL is fine).  Any thread. */
struct file *file_ref(struct file *f);
void file_unref(struct file *f);

#endif
