/*
 * pipe.c - pipes: a 4 KiB ring buffer between a read end and a write end.
 *
 * Each end is a struct file (kernel/file.h) whose f_priv is the pipe; the
 * pipe counts the open files of each end and is freed when both counts
 * reach zero.  Reads block while the pipe is empty and a writer exists (no
 * writer: end of file); writes block while it is full and a reader exists
 * (no reader: EPIPE, as on Unix; write(2) then sends the process SIGPIPE,
 * kernel/syscall.c, and an in-kernel writer sees the error, kernel/kstdio.c).  A
 * blocked call ends with EINTR when its thread is killed.  One spinlock per
 * pipe guards everything in it; sleepers wait on one queue per direction.
 * Each write's bytes keep the writer's causal baggage until a read consumes
 * them (BAGGAGE_PIPE_WRITE/READ, kernel/baggage_site.h; one no-op
 * instruction each while no D program uses bag->).
 *
 * Tests: tests/e2e/test_shell_pipes.py; tests/d/proc
 */
#include "kernel/baggage_site.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/proc.h"
#include "kernel/thread.h"

#define PIPE_SIZE 4096

struct pipe {
	spinlock_t pp_lock;
	waitq_t pp_readable;         /* readers wait here for bytes or the last writer */
	waitq_t pp_writable;         /* writers wait here for room or the last reader */
	size_t pp_head, pp_len;      /* the bytes are pp_buf[pp_head..] modulo PIPE_SIZE */
	int pp_readers, pp_writers;  /* open files of each end */
	struct bag_segs pp_bag;      /* the writers' baggage, per segment (kernel/baggage.c) */
	char pp_buf[PIPE_SIZE];
};

static int64_t pipe_read(struct file *f, void *buf, size_t n)
{
	struct pipe *pp = f->f_priv;
	char *out = buf;
	size_t got = 0;

	spin_lock(&pp->pp_lock);
	while (pp->pp_len == 0 && pp->pp_writers > 0) {
		if (thread_should_exit()) {
			spin_unlock(&pp->pp_lock);
			return -EINTR;
		}
		waitq_sleep(&pp->pp_readable, &pp->pp_lock);
	}
	while (got < n && pp->pp_len > 0) {
		size_t run = MIN(MIN(n - got, pp->pp_len), PIPE_SIZE - pp->pp_head);
		memcpy(out + got, pp->pp_buf + pp->pp_head, run);
		pp->pp_head = (pp->pp_head + run) % PIPE_SIZE;
		pp->pp_len -= run;
		got += run;
	}
	BAGGAGE_PIPE_READ(&pp->pp_bag, got);        /* the reader adopts what it consumed */
	waitq_wake_all(&pp->pp_writable);
	spin_unlock(&pp->pp_lock);
	return (int64_t)got;
}

static int64_t pipe_write(struct file *f, const void *buf, size_t n)
{
	struct pipe *pp = f->f_priv;
	const char *in = buf;
	size_t put = 0;
	int64_t err = 0;

	spin_lock(&pp->pp_lock);
	while (put < n && err == 0) {
		if (pp->pp_readers == 0)
			err = -EPIPE;
		else if (pp->pp_len == PIPE_SIZE && thread_should_exit())
			err = -EINTR;
		else if (pp->pp_len == PIPE_SIZE)
			waitq_sleep(&pp->pp_writable, &pp->pp_lock);
		else {
			size_t tail = (pp->pp_head + pp->pp_len) % PIPE_SIZE;
			size_t run = MIN(MIN(n - put, PIPE_SIZE - pp->pp_len), PIPE_SIZE - tail);
			memcpy(pp->pp_buf + tail, in + put, run);
			pp->pp_len += run;
			put += run;
			BAGGAGE_PIPE_WRITE(&pp->pp_bag, pp->pp_len);   /* these bytes carry the writer's baggage */
			waitq_wake_all(&pp->pp_readable);
		}
	}
	spin_unlock(&pp->pp_lock);
	return put > 0 ? (int64_t)put : err;
}

/* pipe_release: one end's last file closed; the pipe goes with the last end. */
static void pipe_release(struct file *f, bool reader)
{
	struct pipe *pp = f->f_priv;

	spin_lock(&pp->pp_lock);
	if (reader)
		pp->pp_readers--;
	else
		pp->pp_writers--;
	bool last = pp->pp_readers == 0 && pp->pp_writers == 0;
	waitq_wake_all(&pp->pp_readable);
	waitq_wake_all(&pp->pp_writable);
	spin_unlock(&pp->pp_lock);
	kfree(f);
	if (last)
		kfree(pp);
}

static void pipe_release_read(struct file *f)
{
	pipe_release(f, true);
}

static void pipe_release_write(struct file *f)
{
	pipe_release(f, false);
}

static const struct file_ops pipe_read_ops = {
	.fo_read = pipe_read, .fo_release = pipe_release_read, .fo_mode = FILE_S_IFIFO,
};
static const struct file_ops pipe_write_ops = {
	.fo_write = pipe_write, .fo_release = pipe_release_write, .fo_mode = FILE_S_IFIFO,
};

int pipe_create(struct file **rd, struct file **wr)
{
	struct pipe *pp = kzalloc(sizeof(*pp));
	struct file *r = kzalloc(sizeof(*r)), *w = kzalloc(sizeof(*w));

	if (pp == NULL || r == NULL || w == NULL) {
		kfree(pp);
		kfree(r);
		kfree(w);
		return -ENOMEM;
	}
	spin_init(&pp->pp_lock, "pipe");
	pp->pp_readers = pp->pp_writers = 1;
	*r = (struct file){ .f_ops = &pipe_read_ops, .f_refs = 1, .f_priv = pp };
	*w = (struct file){ .f_ops = &pipe_write_ops, .f_refs = 1, .f_priv = pp };
	*rd = r;
	*wr = w;
	return 0;
}
