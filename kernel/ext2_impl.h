/*
 * ext2_impl.h - what the three files of the ext2 driver share (ext2.h is
 * its face to the rest of the kernel).
 *
 * The driver is one file system in three files, by layer:
 *   kernel/ext2_blocks.c  bytes on disk: the superblock and group descriptors,
 *                         inodes, the bitmaps (allocation), block maps, file contents
 *   kernel/ext2_dir.c     directories (entries in blocks) and path walks
 *   kernel/ext2.c         nodes held by open files, the file operations, the
 *                         public calls (open, mkdir, unlink, rename ...) and mounting
 * Each layer calls only the ones above it in this list.  The on-disk layout
 * (offsets of the superblock's fields, modes, features) and the in-memory
 * structures are here; the theory of the whole is in ext2.c.
 *
 * Context: thread context, under the mount's fs_lock (taken by ext2.c's
 * public calls).
 *
 * Tests: tests/unit/kernel_ext2_test.c; tests/e2e/test_disk.py
 */
#ifndef SONDE_EXT2_IMPL_H
#define SONDE_EXT2_IMPL_H

#include "kernel/ext2.h"
#include "kernel/bcache.h"
#include "kernel/klib.h"
#include "kernel/lock.h"

#ifdef SONDE_HOST
int kprintf(const char *fmt, ...) PRINTFLIKE(1, 2);   /* the unit test's */
#endif

#define EXT2_MAGIC      0xEF53
#define EXT2_ROOT       2
#define EXT2_NDIR       12
#define EXT2_IND        12
#define EXT2_DIND       13
#define EXT2_TIND       14
#define EXT2_INDEX_FL   0x1000
#define EXT2_CACHE_BUFS 2048       /* the buffer cache, KiB: more than /disk/data/lines.txt, so a reread is memory (make bench) */

/* features */
#define INCOMPAT_FILETYPE    0x0002
#define RO_SPARSE_SUPER      0x0001
#define RO_LARGE_FILE        0x0002
#define INCOMPAT_OK          INCOMPAT_FILETYPE
#define RO_COMPAT_OK         (RO_SPARSE_SUPER | RO_LARGE_FILE)

/* superblock offsets */
#define SB_INODES     0
#define SB_BLOCKS     4
#define SB_FREE_B     12
#define SB_FREE_I     16
#define SB_FIRST_DATA 20
#define SB_LOG_BSIZE  24
#define SB_BPG        32
#define SB_IPG        40
#define SB_MAGIC      56
#define SB_REV        76
#define SB_FIRST_INO  84
#define SB_INODE_SIZE 88
#define SB_COMPAT     92
#define SB_INCOMPAT   96
#define SB_RO_COMPAT  100

/* inode modes */
#define S_IFMT   0170000
#define S_IFDIR  0040000
#define S_IFREG  0100000
#define S_IFLNK  0120000

#define ELOOP_ 40

struct e2node {                  /* an inode some open file holds */
	uint32_t n_ino;
	int n_refs;
	struct e2node *n_next;
};

struct ext2fs {
	struct blkdev *fs_dev;
	struct bcache *fs_bc;
	mutex_t fs_lock;
	uint8_t fs_sb[1024];
	uint8_t *fs_gd;              /* ngroups * 32 bytes */
	uint32_t fs_bsize, fs_ngroups, fs_bpg, fs_ipg, fs_isize, fs_first_ino, fs_first_data;
	uint32_t fs_nblocks, fs_ninodes, fs_ptrs;    /* ptrs: block numbers per block */
	uint64_t fs_maxsize;
	bool fs_ro, fs_filetype;
	struct e2node *fs_nodes;
	char fs_prefix[32];
};

struct e2ino {                   /* the fields of an inode this file uses */
	uint16_t i_mode, i_links;
	uint64_t i_size;
	uint32_t i_blocks, i_flags, i_atime, i_ctime, i_mtime, i_dtime;
	uint32_t i_block[15];
};

struct e2file {                  /* an open file's f_priv */
	struct ext2fs *ef_fs;
	uint32_t ef_ino;
	bool ef_dir;
	uint64_t ef_rd_idx, ef_rd_off;   /* readdir's cursor: entry ef_rd_idx is at byte ef_rd_off */
	char ef_path[BCACHE_FILE_MAX];
};

struct dloc {                    /* where a directory entry is */
	uint32_t dl_pblk;
	uint32_t dl_off, dl_prev;    /* byte offsets in the block; dl_prev == dl_off: first in block */
	uint32_t dl_ino;
	uint8_t dl_type;
};

/* Little-endian fields, byte by byte (the same code on big-endian sparc64). */
static inline uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static inline void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void put32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }
static inline uint8_t *gd(struct ext2fs *fs, uint32_t g) { return fs->fs_gd + (size_t)g * 32; }
static inline uint32_t ino_group(struct ext2fs *fs, uint32_t ino) { return (ino - 1) / fs->fs_ipg; }

/* ext2_blocks.c */
uint32_t e2_now_sec(void);
int e2_corrupt(struct ext2fs *fs, const char *what, uint64_t n);
int e2_iget(struct ext2fs *fs, uint32_t ino, struct e2ino *ip);
int e2_iput(struct ext2fs *fs, uint32_t ino, const struct e2ino *ip, bool fresh);
uint32_t e2_group_blocks(struct ext2fs *fs, uint32_t g);
int e2_balloc(struct ext2fs *fs, uint32_t g0, uint32_t *out);
void e2_bfree(struct ext2fs *fs, uint32_t blk);
int e2_ialloc(struct ext2fs *fs, uint32_t g0, bool dir, uint32_t *out);
void e2_ifree(struct ext2fs *fs, uint32_t ino, bool dir);
int e2_bmap(struct ext2fs *fs, uint32_t ino, struct e2ino *ip, uint64_t lblk, bool alloc,
            uint32_t *out);
void e2_blocks_free_from(struct ext2fs *fs, struct e2ino *ip, uint64_t from);
bool e2_has_blocks(const struct e2ino *ip);
int64_t e2_data_read(struct ext2fs *fs, uint32_t ino, const char *path, uint64_t off, void *buf,
                     size_t n);
int64_t e2_data_write(struct ext2fs *fs, uint32_t ino, const char *path, uint64_t off,
                      const void *buf, size_t n);
int e2_set_size(struct ext2fs *fs, uint32_t ino, uint64_t size);

/* ext2_dir.c */
bool e2_dent_ok(struct ext2fs *fs, const uint8_t *d, uint32_t off);
int e2_dir_find(struct ext2fs *fs, uint32_t dino, const char *name, size_t len, struct dloc *loc);
uint8_t e2_dt_of_mode(uint16_t mode);
void e2_dent_put(struct ext2fs *fs, uint8_t *d, uint32_t ino, uint16_t rec, const char *name,
                 size_t len, uint16_t mode);
int e2_dir_add(struct ext2fs *fs, uint32_t dino, const char *name, size_t len, uint32_t ino,
               uint16_t mode);
int e2_dir_remove(struct ext2fs *fs, uint32_t dino, const struct dloc *loc);
int e2_dir_set_dotdot(struct ext2fs *fs, uint32_t ino, uint32_t parent);
int e2_dir_empty(struct ext2fs *fs, uint32_t dino);
int e2_walk(struct ext2fs *fs, const char *rel, bool parent, uint32_t *ino, const char **last,
            size_t *lastlen);

#endif
