/*
 * tmpfs.h - the in-memory writable file system mounted at /tmp.
 *
 * What: a small tree of directories and regular files held in kernel
 * pages, reached through the path layer (kernel/vfs.c), which hands this
 * file paths relative to /tmp ("" is /tmp itself, "a/b.d" is /tmp/a/b.d),
 * already normalized: no ".", "..", empty or trailing components.
 * What not: no hard links beyond the one name, no permissions, no times,
 * no sparse files (a write past the end fills the gap with zeros).
 * Invariants: at most TMPFS_PAGES data pages in all (ENOSPC beyond); a
 * node is freed, with every page it held, when it has no name and no open
 * file (unlink of an open file frees it at the last close, as on Unix);
 * tmpfs_pages() is what is held now.  One spinlock guards everything.
 * Context: thread context, not probe context (page_alloc).
 */
#ifndef SONDE_TMPFS_H
#define SONDE_TMPFS_H

#include <stddef.h>
#include <stdint.h>
#include "kernel/file.h"

#define TMPFS_NODES      64          /* files and directories, /tmp included */
#define TMPFS_PAGES      256         /* 1 MiB of file data in all */
#define TMPFS_NAME_MAX   60          /* bytes of one name, NUL included */

/*
 * tmpfs_open: open rel with open(2)'s Linux flags (O_CREAT, O_EXCL,
 * O_TRUNC, O_APPEND, the access mode).  A regular file: 0 and a new
 * reference in *out.  A directory: 1 and its node in *dir, held
 * (tmpfs_release it), for the path layer to wrap.  Errors: -ENOENT,
 * -EEXIST, -ENOTDIR, -EISDIR (writing a directory), -ENOSPC (no node).
 */
int tmpfs_open(const char *rel, int flags, struct file **out, int *dir);

/* tmpfs_hold/tmpfs_release: an open directory's reference to node. */
void tmpfs_hold(int node);
void tmpfs_release(int node);

/* tmpfs_readdir: entry idx (0, 1, ...) of directory node into *de: 1, or 0 past the last. */
int tmpfs_readdir(int node, uint64_t idx, struct file_dirent *de);

/* tmpfs_stat: what stat(2) says of rel; 0, -ENOENT, -ENOTDIR. */
int tmpfs_stat(const char *rel, struct file_stat *st);

/* unlink(2), mkdir(2), rmdir(2), rename(2) under /tmp: 0 or a negative errno as Linux gives. */
int tmpfs_unlink(const char *rel);
int tmpfs_mkdir(const char *rel);
int tmpfs_rmdir(const char *rel);
int tmpfs_rename(const char *from, const char *to);

/* tmpfs_pages: data pages held now; tmpfs_nodes: nodes in use (/tmp included). */
uint64_t tmpfs_pages(void);
int tmpfs_nodes(void);

#endif
