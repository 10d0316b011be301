/*
 * shell_vfs.c - the shell's ls and cat beyond the boot archive: /tmp and /dev.
 *
 * The built-in ls and cat (shell_files.c) read the boot archive's table
 * directly; a path they do not find there (a /tmp file, /dev) comes here
 * and is read through the kernel's path layer (kernel/vfs.c), as a
 * program would read it.  `df` reports what /tmp (and /disk) hold; `sync`
 * writes /disk's changes.  Kernel only (the host tests' pretend kernel
 * answers "no such file").  Thread context, the shell's thread.
 *
 * Tests: tests/e2e/test_shell_pipes.py, tests/e2e/test_commands.py
 */
#include "kernel/console.h"
#include "kernel/ext2.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/proc.h"
#include "kernel/tmpfs.h"
#include "console/shell/shell.h"

/* vfs_ls_entry: one entry, its size with -l (stat of dir/name). */
static void vfs_ls_entry(const char *dir, const struct file_dirent *de, bool lng)
{
	char path[FILE_NAME_MAX * 2];
	struct file_stat st;

	if (!lng) {
		kprintf("%s%s\n", de->de_name, de->de_type == FILE_DT_DIR ? "/" : "");
		return;
	}
	ksnprintf(path, sizeof(path), "%s/%s", dir, de->de_name);
	if (de->de_type == FILE_DT_DIR || file_stat(path, &st) < 0)
		kprintf("%10s %s%s\n", "-", de->de_name, de->de_type == FILE_DT_DIR ? "/" : "");
	else
		kprintf("%10lu %s\n", st.fs_size, de->de_name);
}

int shell_vfs_ls(const char *path, bool all, bool lng)
{
	struct file *f;
	struct file_stat st;
	int r = file_stat(path, &st);

	if (r == 0 && (st.fs_mode & FILE_S_IFMT) != FILE_S_IFDIR) {
		if (lng)
			kprintf("%10lu %s\n", st.fs_size, path);
		else
			kprintf("%s\n", path);
		return SHELL_OK;
	}
	if (r < 0 || file_open(path, FILE_O_DIRECTORY, &f) < 0) {
		kprintf_err("ls: %s: no such file or directory\n", path);
		return SHELL_ERR;
	}
	struct file_dirent *de = kmalloc(sizeof(*de));
	for (uint64_t i = 0; de != NULL && f->f_ops->fo_readdir(f, i, de) > 0; i++)
		if (de->de_name[0] != '.' || all)
			if (all || (strcmp(de->de_name, ".") != 0 && strcmp(de->de_name, "..") != 0))
				vfs_ls_entry(path, de, lng);
	kfree(de);
	file_unref(f);
	return SHELL_OK;
}

int shell_vfs_cat(const char *path)
{
	char *buf;
	size_t len;

	if (file_read_all(path, &buf, &len) < 0) {
		kprintf_err("cat: %s: no such file\n", path);
		return SHELL_ERR;
	}
	kstdout_write(buf, len);
	kfree(buf);
	return SHELL_OK;
}

/* df: what /tmp holds; with nothing in it, "0 files, 0 pages" (every page came back). */
static int shell_do_df(int argc, char **argv)
{
	if (argc != 1)
		return shell_usage(argv[0]);
	kprintf("/tmp: %d files, %lu of %d pages held\n", tmpfs_nodes() - 1, tmpfs_pages(), TMPFS_PAGES);
	struct ext2fs *fs = vfs_disk_fs();
	if (fs != NULL) {
		struct ext2_info ei;
		ext2_info(fs, &ei);
		kprintf("/disk: %llu of %llu KiB free, %llu of %llu inodes free%s\n",
		        (unsigned long long)(ei.ei_bfree * ei.ei_bsize / 1024),
		        (unsigned long long)(ei.ei_blocks * ei.ei_bsize / 1024),
		        (unsigned long long)ei.ei_ifree, (unsigned long long)ei.ei_inodes,
		        ext2_readonly(fs) ? " (read-only)" : "");
	}
	return SHELL_OK;
}
SHELL_COMMAND(df, shell_do_df, "df", "what /tmp holds (files, pages) and /disk's free space");

/* sync: /disk's delayed writes on the disk, waited for. */
static int shell_do_sync(int argc, char **argv)
{
	if (argc != 1)
		return shell_usage(argv[0]);
	int r = file_sync();
	if (r < 0) {
		kprintf_err("sync: %s\n", file_strerror(r));
		return SHELL_ERR;
	}
	return SHELL_OK;
}
SHELL_COMMAND(sync, shell_do_sync, "sync", "write the changes made to /disk to the disk and wait");
