/*
 * io.d: the io provider's arguments, bufinfo_t, devinfo_t and fileinfo_t,
 * and the b_flags values.
 *
 * Part of Sonde's D library (dlang/dt_lib.c).  Every io probe
 * (io:::start, done, wait-start, wait-done: kernel/blkdev.c) passes one
 * native argument, the request's struct buf * (kernel/blkdev.h), and
 * publishes it three times as the Dynamic Tracing Guide types them:
 * args[0] a bufinfo_t *, args[1] a devinfo_t *, args[2] a fileinfo_t *,
 * each a translation of that struct buf * by the translators below
 * (trace/prov_sdt.c says so in its argument descriptions).
 *
 * b_flags holds Solaris's values (B_READ 0x40, B_WRITE 0x100, ...), so
 * `args[0]->b_flags & B_READ` reads as in the Guide's examples.  b_edev is
 * the device number as Solaris packs it in 64 bits: the major number
 * above the minor (Sonde's minor is the instance: a disk has no
 * partitions).  A request the buffer cache did not make for a file's data
 * (a superblock, an inode table, a self-test's) has no file: its
 * fileinfo_t reads "<none>" in every name and -1 as the offset, as the
 * Guide says of I/O with no file.
 */

inline int B_BUSY = 0x0001;
inline int B_DONE = 0x0002;
inline int B_ERROR = 0x0004;
inline int B_PAGEIO = 0x0010;
inline int B_PHYS = 0x0020;
inline int B_READ = 0x0040;
inline int B_WRITE = 0x0100;
inline int B_ASYNC = 0x0400;

typedef long long offset_t;

typedef struct bufinfo {
	int b_flags;			/* B_READ or B_WRITE, B_DONE ... */
	size_t b_bcount;		/* bytes to transfer */
	caddr_t b_addr;			/* where, in the kernel */
	uint64_t b_blkno;		/* the first sector on the device */
	uint64_t b_lblkno;		/* the file system's block number */
	size_t b_resid;			/* bytes not transferred */
	size_t b_bufsize;		/* the buffer's size */
	caddr_t b_iodone;		/* the completion routine, or 0 */
	int b_error;			/* the errno of a failed transfer */
	dev_t b_edev;			/* the device */
} bufinfo_t;

typedef struct devinfo {
	int dev_major;			/* the driver's number */
	int dev_minor;			/* the device's within it */
	int dev_instance;		/* the driver's instance */
	string dev_name;		/* the driver: "vioblk" */
	string dev_statname;		/* name and instance: "vioblk0" */
	string dev_pathname;		/* the device's path */
} devinfo_t;

typedef struct fileinfo {
	string fi_name;			/* the file's name, no directory */
	string fi_dirname;		/* its directory */
	string fi_pathname;		/* the whole path */
	offset_t fi_offset;		/* where in the file */
	string fi_fs;			/* the file system's type: "ext2" */
	string fi_mount;		/* where it is mounted: "/disk" */
	int fi_oflags;			/* open(2) flags (0 for io probes) */
} fileinfo_t;

translator bufinfo_t < struct buf *B > {
	b_flags = B->b_flags;
	b_bcount = B->b_bcount;
	b_addr = (caddr_t)B->b_addr;
	b_blkno = B->b_blkno;
	b_lblkno = B->b_lblkno;
	b_resid = B->b_resid;
	b_bufsize = B->b_bcount;
	b_iodone = (caddr_t)B->b_iodone;
	b_error = B->b_error;
	b_edev = ((dev_t)B->b_dev->bd_dip.devi_major << 32) | B->b_dev->bd_dip.devi_instance;
};

translator devinfo_t < struct buf *B > {
	dev_major = B->b_dev->bd_dip.devi_major;
	dev_minor = B->b_dev->bd_dip.devi_instance;
	dev_instance = B->b_dev->bd_dip.devi_instance;
	dev_name = stringof(B->b_dev->bd_name);
	dev_statname = stringof(B->b_dev->bd_statname);
	dev_pathname = stringof(B->b_dev->bd_pathname);
};

translator fileinfo_t < struct buf *B > {
	fi_name = B->b_file != 0 ? basename(stringof(B->b_file)) : "<none>";
	fi_dirname = B->b_file != 0 ? dirname(stringof(B->b_file)) : "<none>";
	fi_pathname = B->b_file != 0 ? stringof(B->b_file) : "<none>";
	fi_offset = B->b_file != 0 ? (offset_t)B->b_foff : -1;
	fi_fs = B->b_file != 0 && B->b_dev->bd_fstype != 0 ? stringof(B->b_dev->bd_fstype) : "<none>";
	fi_mount = B->b_file != 0 && B->b_dev->bd_mount != 0 ? stringof(B->b_dev->bd_mount) : "<none>";
	fi_oflags = 0;
};

/*
 * fileinfo_t of an open file (kernel/file.h's struct file), for fds[]: the
 * path it was opened by, its file system and where that is mounted
 * (kernel/vfs.c names every file it opens), the offset and open(2)'s
 * flags.  No file (a descriptor not open) reads "<none>"; a file with no
 * name (a pipe) "<unknown>", as DTrace's do.
 */
translator fileinfo_t < struct file *F > {
	fi_name = F == NULL ? "<none>" : F->f_path == NULL ? "<unknown>" : basename(stringof(F->f_path));
	fi_dirname = F == NULL ? "<none>" : F->f_path == NULL ? "<unknown>" : dirname(stringof(F->f_path));
	fi_pathname = F == NULL ? "<none>" : F->f_path == NULL ? "<unknown>" : stringof(F->f_path);
	fi_offset = F == NULL ? 0 : (offset_t)F->f_off;
	fi_fs = F == NULL ? "<none>" : F->f_fs == NULL ? "<unknown>" : stringof(F->f_fs);
	fi_mount = F == NULL ? "<none>" : F->f_mount == NULL ? "<unknown>" : stringof(F->f_mount);
	fi_oflags = F == NULL ? 0 : F->f_oflags;
};

/*
 * fds[fd]: the current process's descriptor fd as a fileinfo_t, as in
 * DTrace (fds[0].fi_pathname); a kernel thread, or fd out of range or not
 * open, reads as no file.
 */
inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (
    curthread->t_proc != NULL && fd >= 0 &&
    fd < sizeof (curthread->t_proc->p_files) / sizeof (curthread->t_proc->p_files[0]) ?
    curthread->t_proc->p_files[fd] : (struct file *)NULL);
