/*
 * tmpfs.c - the in-memory file system at /tmp (what it is: tmpfs.h).
 *
 * Theory.  A fixed table of nodes; node 0 is /tmp.  A node is a directory
 * or a regular file; it has a parent (the directory it is named in, or -1
 * once unlinked), a name, and two counts: tn_linked (it
 * has a name) and tn_opens (open files and held directories).  A file's
 * data is an array of page pointers, page i holding bytes [i*4K, i*4K+4K);
 * a page exists only below the file's size.  A directory's entries are
 * the nodes whose parent it is, found by scanning the table (64 nodes), so
 * a directory stores nothing of its own.  tmpfs_used counts data pages in
 * all: a write that needs more than TMPFS_PAGES is ENOSPC (what fits is
 * written first, as a short write).  A node with neither a name nor an
 * open file is freed at once, pages and all.
 *
 * Locking: tmpfs_lock guards the whole table and all data; reads and
 * writes copy under it (the system call layer moves at most 512 bytes a
 * time).  Context: thread context (page_alloc), never probe context.
 *
 * Order: nodes, path lookup, file I/O, open, directories, changing the tree.
 *
 * Tests: tests/e2e/test_shell_pipes.py (/tmp)
 */
#include "kernel/tmpfs.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/proc.h"

#define PAGE 4096

struct tmpfs_node {
	bool tn_used, tn_dir;
	int tn_parent;               /* index of its directory; -1 without a name */
	int tn_linked;               /* 1 while it has a name (0 once unlinked) */
	int tn_opens;                /* open files, held directories */
	char tn_name[TMPFS_NAME_MAX];
	uint64_t tn_size;            /* bytes (files) */
	void *tn_pages[TMPFS_PAGES]; /* data pages below tn_size, NULL above */
};

static struct tmpfs_node nodes[TMPFS_NODES] = {
	[0] = { .tn_used = true, .tn_dir = true, .tn_parent = -1, .tn_linked = 1, .tn_name = "tmp" },
};
static spinlock_t tmpfs_lock = SPINLOCK_INIT("tmpfs");
static uint64_t tmpfs_used;       /* data pages held */

/* --- nodes (tmpfs_lock held) --------------------------------------------------- */

/* node_truncate: drop n's pages from byte size up. */
static void node_truncate(struct tmpfs_node *n, uint64_t size)
{
	for (uint64_t i = (size + PAGE - 1) / PAGE; i < TMPFS_PAGES; i++) {
		if (n->tn_pages[i] != NULL) {
			page_free(n->tn_pages[i]);
			n->tn_pages[i] = NULL;
			tmpfs_used--;
		}
	}
	if (size < n->tn_size && size % PAGE != 0 && n->tn_pages[size / PAGE] != NULL)
		memset((char *)n->tn_pages[size / PAGE] + size % PAGE, 0, PAGE - size % PAGE);
	n->tn_size = size;
}

/* node_put_if_gone: free n if it has no name and nothing has it open. */
static void node_put_if_gone(struct tmpfs_node *n)
{
	if (n->tn_linked > 0 || n->tn_opens > 0 || n == &nodes[0])
		return;
	node_truncate(n, 0);
	memset(n, 0, sizeof(*n));
}

static struct tmpfs_node *node_alloc(bool dir)
{
	for (int i = 1; i < TMPFS_NODES; i++) {
		if (!nodes[i].tn_used) {
			memset(&nodes[i], 0, sizeof(nodes[i]));
			nodes[i].tn_used = true;
			nodes[i].tn_dir = dir;
			nodes[i].tn_parent = -1;
			return &nodes[i];
		}
	}
	return NULL;
}

static int node_index(const struct tmpfs_node *n)
{
	return (int)(n - nodes);
}

/* --- path lookup (tmpfs_lock held) ---------------------------------------------- */

/* dir_child: the node named name (len bytes) in directory dir, or NULL. */
static struct tmpfs_node *dir_child(int dir, const char *name, size_t len)
{
	for (int i = 1; i < TMPFS_NODES; i++)
		if (nodes[i].tn_used && nodes[i].tn_linked && nodes[i].tn_parent == dir &&
		    strlen(nodes[i].tn_name) == len && strncmp(nodes[i].tn_name, name, len) == 0)
			return &nodes[i];
	return NULL;
}

/*
 * path_walk: follow rel's components but the last from /tmp: the directory
 * they end in (*dir) and the last component (*last, "" for /tmp itself).
 * 0, -ENOENT, -ENOTDIR, -ENAMETOOLONG.
 */
static int path_walk(const char *rel, int *dir, const char **last)
{
	int d = 0;
	const char *p = rel;

	for (;;) {
		const char *slash = strchr(p, '/');
		if (slash == NULL)
			break;
		struct tmpfs_node *c = dir_child(d, p, (size_t)(slash - p));
		if (c == NULL)
			return -ENOENT;
		if (!c->tn_dir)
			return -ENOTDIR;
		d = node_index(c);
		p = slash + 1;
	}
	if (strlen(p) >= TMPFS_NAME_MAX)
		return -ENAMETOOLONG;
	*dir = d;
	*last = p;
	return 0;
}

/* path_node: the node rel names, or NULL with the error in *err. */
static struct tmpfs_node *path_node(const char *rel, int *err)
{
	int dir;
	const char *last;

	*err = path_walk(rel, &dir, &last);
	if (*err < 0)
		return NULL;
	if (*last == '\0')
		return &nodes[dir];
	struct tmpfs_node *n = dir_child(dir, last, strlen(last));
	if (n == NULL)
		*err = -ENOENT;
	return n;
}

/* --- file I/O ------------------------------------------------------------------------ */

static int64_t tf_read(struct file *f, void *buf, size_t len)
{
	struct tmpfs_node *n = f->f_priv;
	char *out = buf;
	size_t got = 0;

	spin_lock(&tmpfs_lock);
	while (got < len && f->f_off < n->tn_size) {
		uint64_t off = f->f_off % PAGE;
		size_t run = MIN(MIN(len - got, PAGE - off), n->tn_size - f->f_off);
		const char *pg = n->tn_pages[f->f_off / PAGE];
		if (pg != NULL)
			memcpy(out + got, pg + off, run);
		else
			memset(out + got, 0, run);         /* a gap a write past the end left */
		got += run;
		f->f_off += run;
	}
	spin_unlock(&tmpfs_lock);
	return (int64_t)got;
}

/* tf_page: the page holding byte off of n, allocated (zeroed) if need be; NULL: no space. */
static char *tf_page(struct tmpfs_node *n, uint64_t off)
{
	uint64_t i = off / PAGE;

	if (i >= TMPFS_PAGES)
		return NULL;
	if (n->tn_pages[i] == NULL) {
		if (tmpfs_used >= TMPFS_PAGES || (n->tn_pages[i] = page_alloc()) == NULL)
			return NULL;
		tmpfs_used++;
	}
	return n->tn_pages[i];
}

static int64_t tf_write(struct file *f, const void *buf, size_t len)
{
	struct tmpfs_node *n = f->f_priv;
	const char *in = buf;
	size_t put = 0;

	spin_lock(&tmpfs_lock);
	if (f->f_flags & FILE_O_APPEND)
		f->f_off = n->tn_size;
	while (put < len) {
		char *pg = tf_page(n, f->f_off);
		if (pg == NULL)
			break;
		uint64_t off = f->f_off % PAGE;
		size_t run = MIN(len - put, PAGE - off);
		memcpy(pg + off, in + put, run);
		put += run;
		f->f_off += run;
		if (f->f_off > n->tn_size)
			n->tn_size = f->f_off;
	}
	spin_unlock(&tmpfs_lock);
	return put > 0 || len == 0 ? (int64_t)put : -ENOSPC;
}

static uint64_t tf_size(struct file *f)
{
	return ((struct tmpfs_node *)f->f_priv)->tn_size;
}

static void tf_stat(struct file *f, struct file_stat *st)
{
	struct tmpfs_node *n = f->f_priv;

	*st = (struct file_stat){ .fs_mode = FILE_S_IFREG | 0644, .fs_size = n->tn_size,
	                          .fs_ino = 1000 + (uint64_t)node_index(n), .fs_nlink = (uint64_t)n->tn_linked };
}

static int tf_truncate(struct file *f, uint64_t size)
{
	struct tmpfs_node *n = f->f_priv;

	if (size > (uint64_t)TMPFS_PAGES * PAGE)
		return -ENOSPC;
	spin_lock(&tmpfs_lock);
	if (size < n->tn_size)
		node_truncate(n, size);
	else
		n->tn_size = size;               /* the gap reads as zeros: pages come at the first write */
	spin_unlock(&tmpfs_lock);
	return 0;
}

static void tf_release(struct file *f)
{
	struct tmpfs_node *n = f->f_priv;

	spin_lock(&tmpfs_lock);
	n->tn_opens--;
	node_put_if_gone(n);
	spin_unlock(&tmpfs_lock);
	kfree(f);
}

static const struct file_ops tf_ops = {
	.fo_read = tf_read, .fo_write = tf_write, .fo_release = tf_release, .fo_size = tf_size,
	.fo_stat = tf_stat, .fo_truncate = tf_truncate, .fo_mode = FILE_S_IFREG,
};

/* tf_file_init: f becomes a new open file of n (n->tn_opens counted by the caller). */
static void tf_file_init(struct file *f, struct tmpfs_node *n, int flags)
{
	*f = (struct file){ .f_ops = &tf_ops, .f_refs = 1, .f_priv = n, .f_flags = flags };
}

/* --- open ---------------------------------------------------------------------------- */

/* tmpfs_create: a new file or directory called last in dir (lock held). */
static struct tmpfs_node *tmpfs_create(int dir, const char *last, bool isdir, int *err)
{
	struct tmpfs_node *n = node_alloc(isdir);

	if (n == NULL) {
		*err = -ENOSPC;
		return NULL;
	}
	kstrlcpy(n->tn_name, last, sizeof(n->tn_name));
	n->tn_parent = dir;
	n->tn_linked = 1;
	return n;
}

int tmpfs_open(const char *rel, int flags, struct file **out, int *dirnode)
{
	int dir, err;
	const char *last;
	struct tmpfs_node *n = NULL;
	struct file *f = NULL;
	bool writing = (flags & FILE_O_ACCMODE) != 0;

	/* kzalloc before the lock: the heap may take locks of its own */
	struct file *spare = kzalloc(sizeof(*spare));
	if (spare == NULL)
		return -ENOMEM;
	spin_lock(&tmpfs_lock);
	err = path_walk(rel, &dir, &last);
	if (err == 0)
		n = *last == '\0' ? &nodes[dir] : dir_child(dir, last, strlen(last));
	if (err == 0 && n != NULL && (flags & FILE_O_CREAT) && (flags & FILE_O_EXCL))
		err = -EEXIST;
	else if (err == 0 && n == NULL && !(flags & FILE_O_CREAT))
		err = -ENOENT;
	else if (err == 0 && n == NULL)
		n = tmpfs_create(dir, last, false, &err);
	if (err == 0 && n->tn_dir && (writing || (flags & FILE_O_CREAT)))
		err = -EISDIR;
	else if (err == 0 && !n->tn_dir && (flags & FILE_O_DIRECTORY))
		err = -ENOTDIR;
	if (err == 0) {
		n->tn_opens++;
		if (n->tn_dir) {
			*dirnode = node_index(n);
			err = 1;
		} else {
			if ((flags & FILE_O_TRUNC) && writing)
				node_truncate(n, 0);
			f = spare;
			tf_file_init(f, n, flags);
			spare = NULL;
		}
	}
	spin_unlock(&tmpfs_lock);
	kfree(spare);
	*out = f;
	return err;
}

/* --- directories ------------------------------------------------------------------- */

void tmpfs_hold(int node)
{
	spin_lock(&tmpfs_lock);
	nodes[node].tn_opens++;
	spin_unlock(&tmpfs_lock);
}

void tmpfs_release(int node)
{
	spin_lock(&tmpfs_lock);
	nodes[node].tn_opens--;
	node_put_if_gone(&nodes[node]);
	spin_unlock(&tmpfs_lock);
}

int tmpfs_readdir(int node, uint64_t idx, struct file_dirent *de)
{
	int r = 0;

	spin_lock(&tmpfs_lock);
	for (int i = 1; i < TMPFS_NODES; i++) {
		const struct tmpfs_node *n = &nodes[i];
		if (!n->tn_used || !n->tn_linked || n->tn_parent != node)
			continue;
		if (idx-- > 0)
			continue;
		de->de_ino = 1000 + (uint64_t)i;
		de->de_type = n->tn_dir ? FILE_DT_DIR : FILE_DT_REG;
		kstrlcpy(de->de_name, n->tn_name, sizeof(de->de_name));
		r = 1;
		break;
	}
	spin_unlock(&tmpfs_lock);
	return r;
}

int tmpfs_stat(const char *rel, struct file_stat *st)
{
	int err;

	spin_lock(&tmpfs_lock);
	struct tmpfs_node *n = path_node(rel, &err);
	if (n != NULL)
		*st = (struct file_stat){ .fs_mode = n->tn_dir ? FILE_S_IFDIR | 0777 : FILE_S_IFREG | 0644,
		                          .fs_size = n->tn_dir ? 0 : n->tn_size,
		                          .fs_ino = 1000 + (uint64_t)node_index(n), .fs_nlink = 1 };
	spin_unlock(&tmpfs_lock);
	return err;
}

/* --- changing the tree ---------------------------------------------------------------- */

/* dir_empty: does directory node have no entries? (lock held) */
static bool dir_empty(int node)
{
	for (int i = 1; i < TMPFS_NODES; i++)
		if (nodes[i].tn_used && nodes[i].tn_linked && nodes[i].tn_parent == node)
			return false;
	return true;
}

/* node_unname: n loses its name (lock held), and goes if nothing has it open. */
static void node_unname(struct tmpfs_node *n)
{
	n->tn_linked = 0;
	n->tn_parent = -1;
	node_put_if_gone(n);
}

int tmpfs_unlink(const char *rel)
{
	int err;

	spin_lock(&tmpfs_lock);
	struct tmpfs_node *n = path_node(rel, &err);
	if (n != NULL && n->tn_dir)
		err = -EISDIR;
	else if (n != NULL)
		node_unname(n);
	spin_unlock(&tmpfs_lock);
	return err;
}

int tmpfs_mkdir(const char *rel)
{
	int dir, err;
	const char *last;

	spin_lock(&tmpfs_lock);
	err = path_walk(rel, &dir, &last);
	if (err == 0 && (*last == '\0' || dir_child(dir, last, strlen(last)) != NULL))
		err = -EEXIST;
	if (err == 0)
		tmpfs_create(dir, last, true, &err);
	spin_unlock(&tmpfs_lock);
	return err;
}

int tmpfs_rmdir(const char *rel)
{
	int err;

	spin_lock(&tmpfs_lock);
	struct tmpfs_node *n = path_node(rel, &err);
	if (n == &nodes[0])
		err = -EBUSY;
	else if (n != NULL && !n->tn_dir)
		err = -ENOTDIR;
	else if (n != NULL && !dir_empty(node_index(n)))
		err = -ENOTEMPTY;
	else if (n != NULL)
		node_unname(n);
	spin_unlock(&tmpfs_lock);
	return err;
}

/* dir_inside: is node d at or below node n? (a directory may not move into itself) */
static bool dir_inside(int d, int n)
{
	for (; d >= 0; d = nodes[d].tn_parent)
		if (d == n)
			return true;
	return false;
}

int tmpfs_rename(const char *from, const char *to)
{
	int err, dir;
	const char *last;

	spin_lock(&tmpfs_lock);
	struct tmpfs_node *n = path_node(from, &err);
	if (n == &nodes[0])
		err = -EBUSY;
	if (err == 0)
		err = path_walk(to, &dir, &last);
	if (err == 0 && *last == '\0')
		err = -EBUSY;
	struct tmpfs_node *old = err == 0 ? dir_child(dir, last, strlen(last)) : NULL;
	if (err == 0 && n->tn_dir && dir_inside(dir, node_index(n)))
		err = -EINVAL;
	else if (old != NULL && old != n && old->tn_dir && !n->tn_dir)
		err = -EISDIR;
	else if (old != NULL && old != n && !old->tn_dir && n->tn_dir)
		err = -ENOTDIR;
	else if (old != NULL && old != n && old->tn_dir && !dir_empty(node_index(old)))
		err = -ENOTEMPTY;
	if (err == 0 && old != n) {
		if (old != NULL)
			node_unname(old);
		kstrlcpy(n->tn_name, last, sizeof(n->tn_name));
		n->tn_parent = dir;
	}
	spin_unlock(&tmpfs_lock);
	return err;
}

uint64_t tmpfs_pages(void)
{
	return __atomic_load_n(&tmpfs_used, __ATOMIC_RELAXED);
}

int tmpfs_nodes(void)
{
	int n = 0;

	spin_lock(&tmpfs_lock);
	for (int i = 0; i < TMPFS_NODES; i++)
		n += nodes[i].tn_used;
	spin_unlock(&tmpfs_lock);
	return n;
}
