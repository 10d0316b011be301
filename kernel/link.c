/*
 * link.c - the link to another Sonde machine, as the file /dev/link.
 *
 * Two machines under QEMU are joined by a serial line (a spare 16550 on
 * each, the two ends of one socket: arch_link_* in arch.h, tools/dtrace-pair).
 * Programs exchange messages over it: one write(2) of a struct link_msg
 * (kernel/link.h) and its payload is one frame (kernel/link_frame.h) on
 * the wire; one read(2) returns one message.  This is where baggage crosses
 * machines (docs/causal.md):
 *
 *   send:    a request that begins a new causal context (LINK_F_BEGIN)
 *            empties the writer's baggage; the link-send probe fires (D
 *            may pack the request's tags now); then the writing thread's
 *            baggage is exported into the frame;
 *   receive: the frame's baggage becomes the reading thread's (a request
 *            starts the reader afresh in the sender's context; a response
 *            is merged into what the reader already carries), then the
 *            link-receive probe fires, so D sees the sender's tags there.
 *
 * Receive: the interrupt handler feeds each byte to the decoder; each good
 * frame goes into a queue of LINK_QUEUE messages, which the reads take in
 * order.  Nothing from the wire is trusted: the decoder refuses malformed
 * frames (counted, dropped), baggage_import checks the baggage bytes, and a
 * frame that arrives while nobody has /dev/link open, or when the queue is
 * full, is dropped and counted.  The counts are the `link` command's.
 *
 * Send: polled, one frame at a time under link_tx (a mutex: a frame is up
 * to LINK_FRAME_MAX bytes of polled output, too long for interrupts off).
 *
 * Not here: retransmission (a frame lost is lost: linkclient knocks until
 * the server answers), flow control beyond the queue, more than one link,
 * addresses or routing.
 *
 * Locks: link_lock (a spinlock, taken in the interrupt handler) guards the
 * decoder, the queue, the open count and the counts; reads sleep on
 * link_readable.  Thread context for everything but link_input.
 *
 * Tests: tests/e2e/test_link.py (two guests, garbage on the wire)
 */
#include "arch/arch.h"
#include "kernel/baggage.h"
#include "kernel/baggage_site.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/link.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/proc.h"
#include "kernel/sdt.h"
#include "kernel/thread.h"

#define LINK_QUEUE 8

/* One message received, waiting for a read. */
struct link_slot {
	uint8_t sl_type;
	uint32_t sl_reqid;
	uint16_t sl_baglen, sl_paylen;
	uint8_t sl_bag[LINK_BAG_MAX];
	uint8_t sl_payload[LINK_PAYLOAD_MAX];
};

static spinlock_t link_lock = SPINLOCK_INIT("link");
static waitq_t link_readable = WAITQ_INIT;
static mutex_t link_tx = MUTEX_INIT("link tx");
static struct link_rx link_decoder;
static struct link_slot link_queue[LINK_QUEUE];
static unsigned link_head, link_len;          /* the queue: link_queue[link_head..] modulo LINK_QUEUE */
static int link_opens;                        /* /dev/link files open */
static struct link_stats link_st;

/* --- baggage across the wire ----------------------------------------------------------- */

_Static_assert(BAGGAGE_MAX <= LINK_BAG_MAX, "a thread's baggage must fit in a frame");

/*
 * link_bag_export: the current thread's baggage in wire form into buf; its
 * length (0: none, or no enabled program uses bag->, which this site's one
 * instruction asks: kernel/baggage_site.h).  sdt:::baggage-message fires
 * with the length, as for the kernel's other messages (kernel/baggage.c).
 */
static size_t link_bag_export(uint8_t *buf, size_t cap)
{
	if (!baggage_site_taken())
		return 0;
	size_t len = baggage_export(curthread(), buf, cap);
	DTRACE_PROBE1(baggage__message, len);    /* bytes this message carries, as for pipes */
	return len;
}

/* link_bag_begin: a request begins a new causal context: the sender's baggage is emptied. */
static void link_bag_begin(void)
{
	if (!baggage_site_taken())
		return;
	uint64_t flags = arch_irq_save();       /* a probe in an interrupt may read t_bag */
	bag_clear(&curthread()->t_bag);
	arch_irq_restore(flags);
}

/*
 * link_bag_import: the received baggage into the current thread: a request
 * replaces what the reader carried (a server starts each request afresh), a
 * response is merged into it.  Malformed baggage is refused and counted;
 * the message is delivered all the same.
 */
static void link_bag_import(const struct link_slot *sl)
{
	struct thread *t = curthread();

	if (!baggage_site_taken())
		return;
	if (sl->sl_type == LINK_T_REQUEST) {
		uint64_t flags = arch_irq_save();   /* a probe in an interrupt may read t_bag */
		bag_clear(&t->t_bag);
		arch_irq_restore(flags);
	}
	if (sl->sl_baglen > 0 && baggage_import(t, sl->sl_bag, sl->sl_baglen) == BAG_E_MALFORMED) {
		spin_lock(&link_lock);
		link_st.ls_bad_baggage++;
		spin_unlock(&link_lock);
	}
}

/* --- receive ---------------------------------------------------------------------------- */

/* link_enqueue: a good frame into the queue, or counted as dropped.  link_lock held. */
static void link_enqueue(const struct link_frame *f)
{
	if (link_opens == 0) {
		link_st.ls_unread++;
		return;
	}
	if (link_len == LINK_QUEUE) {
		link_st.ls_overrun++;
		return;
	}
	struct link_slot *sl = &link_queue[(link_head + link_len++) % LINK_QUEUE];
	sl->sl_type = f->lf_type;
	sl->sl_reqid = f->lf_reqid;
	sl->sl_baglen = f->lf_baglen;
	sl->sl_paylen = f->lf_paylen;
	memcpy(sl->sl_bag, f->lf_bag, f->lf_baglen);
	memcpy(sl->sl_payload, f->lf_payload, f->lf_paylen);
	waitq_wake_all(&link_readable);
}

void link_input(uint8_t c)
{
	struct link_frame f;

	spin_lock(&link_lock);
	link_rx_push(&link_decoder, c);
	while (link_rx_next(&link_decoder, &f))
		link_enqueue(&f);
	spin_unlock(&link_lock);
}

/* link_dequeue: wait for a message and take it into *sl.  0, -EAGAIN (nonblocking), -EINTR. */
static int link_dequeue(bool nonblock, struct link_slot *sl)
{
	spin_lock(&link_lock);
	while (link_len == 0) {
		if (nonblock || thread_should_exit()) {
			spin_unlock(&link_lock);
			return nonblock ? -EAGAIN : -EINTR;
		}
		waitq_sleep(&link_readable, &link_lock);
	}
	*sl = link_queue[link_head];
	link_head = (link_head + 1) % LINK_QUEUE;
	link_len--;
	spin_unlock(&link_lock);
	return 0;
}

static int64_t link_read(struct file *f, void *buf, size_t n)
{
	struct link_slot *sl = kmalloc(sizeof(*sl));
	struct link_msg m;

	if (sl == NULL)
		return -ENOMEM;
	int r = link_dequeue(f->f_flags & FILE_O_NONBLOCK, sl);
	if (r < 0) {
		kfree(sl);
		return r;
	}
	link_bag_import(sl);
	DTRACE_PROBE4(link__receive, sl->sl_type, sl->sl_reqid, sl->sl_paylen, sl->sl_baglen);
	m = (struct link_msg){ .lm_type = sl->sl_type, .lm_reqid = sl->sl_reqid };
	size_t got = MIN(n, sizeof(m));
	memcpy(buf, &m, got);
	if (n > sizeof(m)) {
		size_t more = MIN(n - sizeof(m), sl->sl_paylen);
		memcpy((uint8_t *)buf + sizeof(m), sl->sl_payload, more);
		got += more;
	}
	kfree(sl);
	return (int64_t)got;                     /* a datagram: what did not fit is dropped */
}

/* --- send -------------------------------------------------------------------------------- */

static void link_transmit(const uint8_t *frame, size_t len)
{
	mutex_lock(&link_tx);
	for (size_t i = 0; i < len; i++)
		arch_link_putc(frame[i]);
	mutex_unlock(&link_tx);
	spin_lock(&link_lock);
	link_st.ls_sent++;
	spin_unlock(&link_lock);
}

static int64_t link_write(struct file *f, const void *buf, size_t n)
{
	struct link_msg m;

	(void)f;
	if (n < sizeof(m))
		return -EINVAL;
	if (n > LINK_MSG_MAX)
		return -EINVAL;                  /* one frame's payload at most */
	memcpy(&m, buf, sizeof(m));
	if (m.lm_type != LINK_T_REQUEST && m.lm_type != LINK_T_RESPONSE)
		return -EINVAL;
	if ((m.lm_flags & ~LINK_F_BEGIN) != 0 || (m.lm_flags != 0 && m.lm_type != LINK_T_REQUEST))
		return -EINVAL;
	if (m.lm_flags & LINK_F_BEGIN)
		link_bag_begin();
	size_t paylen = n - sizeof(m);
	DTRACE_PROBE3(link__send, m.lm_type, m.lm_reqid, paylen);
	uint8_t *frame = kmalloc(LINK_FRAME_MAX + LINK_BAG_MAX);
	if (frame == NULL)
		return -ENOMEM;
	uint8_t *bag = frame + LINK_FRAME_MAX;
	size_t baglen = link_bag_export(bag, LINK_BAG_MAX);
	size_t len = link_frame_encode(frame, LINK_FRAME_MAX, m.lm_type, m.lm_reqid, bag, baglen,
	                               (const uint8_t *)buf + sizeof(m), paylen);
	if (len > 0)
		link_transmit(frame, len);
	kfree(frame);
	return len > 0 ? (int64_t)n : -EINVAL;
}

/* --- the file ----------------------------------------------------------------------------- */

static void link_release(struct file *f)
{
	spin_lock(&link_lock);
	if (--link_opens == 0)
		link_len = 0;                    /* what nobody will read */
	spin_unlock(&link_lock);
	kfree(f);
}

static const struct file_ops link_ops = {
	.fo_read = link_read, .fo_write = link_write, .fo_release = link_release,
	.fo_mode = FILE_S_IFCHR,
};

int link_file_open(int flags, struct file **out)
{
	if (!link_st.ls_present)
		return -ENODEV;
	struct file *f = kzalloc(sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	*f = (struct file){ .f_ops = &link_ops, .f_refs = 1, .f_flags = flags };
	spin_lock(&link_lock);
	link_opens++;
	spin_unlock(&link_lock);
	*out = f;
	return 0;
}

void link_stats_get(struct link_stats *st)
{
	spin_lock(&link_lock);
	*st = link_st;
	st->ls_rx = link_decoder.lr_counts;
	spin_unlock(&link_lock);
}

void link_init(void)
{
	link_rx_init(&link_decoder);
	link_st.ls_present = arch_link_init();
	if (link_st.ls_present)
		arch_link_irq_on();
}
