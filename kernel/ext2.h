/*
 * ext2.h - the second extended file system on a block device, read and
 * written through the buffer cache (kernel/bcache.h); mounted at /disk.
 *
 * What: revision 0 and 1 file systems of 1, 2 or 4 KiB blocks, with the
 * filetype feature or without; regular files (direct, single, double and
 * triple indirect blocks, holes read as zeros), directories, and the
 * names of symbolic links and devices (stat and readdir see them;
 * opening one fails with EINVAL).  Incompatible features other than
 * filetype refuse the mount; read-only-compatible ones other than
 * sparse_super and large_file mount it read-only; compatible ones are
 * ignored (a directory's hash index is dropped when it changes, as
 * e2fsck expects).  No permissions, owners, or hard links made here
 * (existing ones are counted right).
 *
 * The path layer (kernel/vfs.c) hands paths relative to the mount point,
 * normalized ("" the root, "etc/motd"); each call takes the file
 * system's mutex for its whole length, so calls are atomic to each other.
 * Changes are delayed writes in the cache: ext2_sync (and fsync of an
 * open file) writes them all and waits; after it, the image passes
 * `e2fsck -fn`.  A file unlinked while open keeps its blocks until its
 * last close.
 *
 * Errors are Linux's: ENOENT, ENOTDIR, EISDIR, EEXIST, ENOTEMPTY, EXDEV,
 * EBUSY (the root), EINVAL (a directory into itself), ENAMETOOLONG
 * (a name over 255 bytes), ENOSPC (no block or inode: nothing is left
 * half-made; a write stops short at the last block it got), EFBIG, EROFS,
 * EIO (a device error, or a corrupt structure found: a kprintf says which).
 *
 * Context: thread context (sleeps).
 */
#ifndef SONDE_EXT2_H
#define SONDE_EXT2_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/blkdev.h"
#include "kernel/file.h"

#define EXT2_NAME_MAX 255

struct ext2fs;

/*
 * ext2_mount: check bd's superblock and group descriptors and mount it;
 * prefix ("/disk") is what paths get in front for the io provider's
 * fi_pathname.  0 and the file system in *out, or -EINVAL (not ext2, or
 * a corrupt or unsupported one: a kprintf line says why), -EIO, -ENOMEM.
 * ext2_probe: does bd start with an ext2 superblock (the magic)?
 */
int ext2_mount(struct blkdev *bd, const char *prefix, struct ext2fs **out);
bool ext2_probe(struct blkdev *bd);
/* ext2_unmount: sync, then free everything (no file may be open). */
void ext2_unmount(struct ext2fs *fs);
bool ext2_readonly(struct ext2fs *fs);

/*
 * ext2_open: as file_open (kernel/file.h) for rel: flags are open(2)'s
 * (FILE_O_*); a directory opens as a file whose fo_readdir lists its
 * entries ("." and ".." first, as on disk).  0 and a new reference.
 */
int ext2_open(struct ext2fs *fs, const char *rel, int flags, struct file **out);
int ext2_stat(struct ext2fs *fs, const char *rel, struct file_stat *st);
int ext2_unlink(struct ext2fs *fs, const char *rel);
int ext2_mkdir(struct ext2fs *fs, const char *rel);
int ext2_rmdir(struct ext2fs *fs, const char *rel);
int ext2_rename(struct ext2fs *fs, const char *from, const char *to);
/* ext2_sync: every change on the disk (biowait done): 0 or -EIO. */
int ext2_sync(struct ext2fs *fs);

/* What statvfs would say (df). */
struct ext2_info {
	uint32_t ei_bsize;
	uint64_t ei_blocks, ei_bfree, ei_inodes, ei_ifree;
};
void ext2_info(struct ext2fs *fs, struct ext2_info *ei);

/* vfs_disk_fs: the file system mounted at /disk, or NULL (kernel/vfs.c). */
struct ext2fs *vfs_disk_fs(void);

#endif
