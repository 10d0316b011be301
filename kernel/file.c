/*
 * file.c - open files: reference counting and the console's files.
 *
 * The console file is a simple terminal line discipline over
 * console_getc(): what is typed is echoed, Backspace erases, Enter ends the
 * line (CR becomes NL), Ctrl-D at the start of a line is end of file and
 * Ctrl-C sends SIGINT to the reading process (the read fails with EINTR).
 * A read returns one line at most.  Writes go to the console as they are
 * (console_write adds the CR before each NL); the error stream's to the
 * console's error device (COM2 under tools/dtrace).  /dev/null reads
 * nothing and takes every write; /dev/zero reads zeros.  These files live
 * for ever (counted, never freed).  A boot archive file opened by a process
 * is a struct file of its own (its offset), freed with its last reference.
 * Paths are the path layer's (kernel/vfs.c), which calls file_boot_open
 * and file_dev_open.
 *
 * Tests: tests/e2e/test_shell_pipes.py, tests/e2e/test_proc.py
 */
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/proc.h"
#include "kernel/thread.h"

#define CTRL_C 0x03
#define CTRL_D 0x04

/* console_read_byte: one typed byte with its echo; -1 for end of file, -2 for Ctrl-C, -3 killed. */
static int console_read_byte(bool at_start)
{
	for (;;) {
		int c = console_getc_killable();
		if (c < 0)
			return -3;
		if (c == CTRL_C)
			return -2;
		if (c == CTRL_D && at_start)
			return -1;
		if (c == '\r')
			c = '\n';
		if (c == '\n' || (c >= ' ' && c < 0x7f) || c == '\t') {
			char ch = (char)c;
			console_write(&ch, 1);
			return c;
		}
		if (c == 0x7f || c == '\b')
			return '\b';
	}
}

static int64_t console_read(struct file *f, void *buf, size_t n)
{
	char *out = buf;
	size_t len = 0;

	(void)f;
	while (len < n) {
		int c = console_read_byte(len == 0);
		if (c == -2) {                   /* Ctrl-C: SIGINT for the reader */
			struct proc *p = curproc();
			if (p != NULL)
				proc_kill(p->p_pid, SIGINT);
			return -EINTR;
		}
		if (c == -3)                     /* killed (dtrace ended, kill): the signal is taken on return */
			return len > 0 ? (int64_t)len : -EINTR;
		if (c < 0)
			break;
		if (c == '\b') {
			if (len > 0) {
				len--;
				console_write("\b \b", 3);
			}
			continue;
		}
		out[len++] = (char)c;
		if (c == '\n')
			break;
	}
	return (int64_t)len;
}

static int64_t console_out(struct file *f, const void *buf, size_t n)
{
	(void)f;
	console_write(buf, n);
	return (int64_t)n;
}

static int64_t console_err_out(struct file *f, const void *buf, size_t n)
{
	(void)f;
	console_err_write(buf, n);
	return (int64_t)n;
}

static const struct file_ops console_ops = {
	.fo_read = console_read, .fo_write = console_out, .fo_tty = true, .fo_mode = FILE_S_IFCHR,
};
static const struct file_ops console_err_ops = {
	.fo_read = console_read, .fo_write = console_err_out, .fo_tty = true, .fo_mode = FILE_S_IFCHR,
};
static struct file console_file = { .f_ops = &console_ops, .f_refs = 1,
                                   .f_path = "/dev/console", .f_fs = "devfs", .f_mount = "/dev" };
static struct file console_err_file = { .f_ops = &console_err_ops, .f_refs = 1,
                                   .f_path = "/dev/console", .f_fs = "devfs", .f_mount = "/dev" };

/* --- /dev/null, /dev/zero -------------------------------------------------- */

static int64_t null_read(struct file *f, void *buf, size_t n)
{
	(void)f; (void)buf; (void)n;
	return 0;
}

static int64_t zero_read(struct file *f, void *buf, size_t n)
{
	(void)f;
	memset(buf, 0, n);
	return (int64_t)n;
}

static int64_t sink_write(struct file *f, const void *buf, size_t n)
{
	(void)f; (void)buf;
	return (int64_t)n;
}

static const struct file_ops null_ops = {
	.fo_read = null_read, .fo_write = sink_write, .fo_mode = FILE_S_IFCHR,
};
static const struct file_ops zero_ops = {
	.fo_read = zero_read, .fo_write = sink_write, .fo_mode = FILE_S_IFCHR, .fo_zero = true,
};
static struct file null_file = { .f_ops = &null_ops, .f_refs = 1,
                                   .f_path = "/dev/null", .f_fs = "devfs", .f_mount = "/dev" };
static struct file zero_file = { .f_ops = &zero_ops, .f_refs = 1,
                                   .f_path = "/dev/zero", .f_fs = "devfs", .f_mount = "/dev" };

/* --- boot archive files: read-only, each open with its own offset ------------------ */

static int64_t kf_read(struct file *f, void *buf, size_t n)
{
	const struct kfile *kf = f->f_priv;

	if (f->f_off >= kf->kf_size)
		return 0;
	n = MIN(n, kf->kf_size - f->f_off);
	memcpy(buf, kf->kf_data + f->f_off, n);
	f->f_off += n;
	return (int64_t)n;
}

static uint64_t kf_size(struct file *f)
{
	return ((const struct kfile *)f->f_priv)->kf_size;
}

static void kf_release(struct file *f)
{
	kfree(f);
}

static const struct file_ops kf_ops = {
	.fo_read = kf_read, .fo_release = kf_release, .fo_size = kf_size, .fo_mode = FILE_S_IFREG,
};

int file_boot_open(const struct kfile *kf, struct file **out)
{
	struct file *f = kzalloc(sizeof(*f));

	if (f == NULL)
		return -ENOMEM;
	*f = (struct file){ .f_ops = &kf_ops, .f_refs = 1, .f_priv = (void *)kf };
	*out = f;
	return 0;
}

struct file *file_dev_open(const char *name)
{
	if (strcmp(name, "null") == 0)
		return file_ref(&null_file);
	if (strcmp(name, "zero") == 0)
		return file_ref(&zero_file);
	if (strcmp(name, "console") == 0)
		return file_ref(&console_file);
	return NULL;
}

struct file *file_console(void)
{
	return file_ref(&console_file);
}

struct file *file_console_err(void)
{
	return file_ref(&console_err_file);
}

struct file *file_ref(struct file *f)
{
	__atomic_add_fetch(&f->f_refs, 1, __ATOMIC_RELAXED);
	return f;
}

void file_unref(struct file *f)
{
	if (f == NULL || __atomic_sub_fetch(&f->f_refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (f->f_path_heap) {
		kfree(f->f_path);
		f->f_path = NULL;
		f->f_path_heap = false;
	}
	if (f->f_ops->fo_release != NULL)
		f->f_ops->fo_release(f);
}
