/*
 * link.h - the link to another Sonde machine: /dev/link (kernel/link.c).
 *
 * A program opens /dev/link and writes or reads one message per call:
 * a struct link_msg header then the payload (at most LINK_PAYLOAD_MAX
 * bytes).  The kernel frames it (kernel/link_frame.h) with the writing
 * thread's baggage and sends it on the machine's link device; a message
 * read carries the sender's baggage into the reading thread.  The header is
 * shared with user programs (userland/bin/linkclient.c, linkserver.c),
 * so it is plain C with fixed-size fields.
 */
#ifndef SONDE_LINK_H
#define SONDE_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/link_frame.h"

/* What a program writes to and reads from /dev/link, before the payload. */
struct link_msg {
	uint8_t lm_type;             /* LINK_T_REQUEST or LINK_T_RESPONSE */
	uint8_t lm_flags;            /* LINK_F_*; 0 when read */
	uint8_t lm_pad[2];           /* 0 */
	uint32_t lm_reqid;           /* the request's id; a response echoes it */
};
/*
 * LINK_F_BEGIN (a request only): this request begins a new causal context.
 * The sending thread's baggage is emptied before link-send fires, so what
 * D packs there is this request's alone, not also every earlier request's
 * of a client that sends them one after another from one thread.
 */
#define LINK_F_BEGIN 0x01
#define LINK_MSG_MAX (sizeof(struct link_msg) + LINK_PAYLOAD_MAX)

/* The kernel's side (user programs see the declarations, harmless). */
struct file;

/* What the link has done since boot (the `link` shell command prints it). */
struct link_stats {
	bool ls_present;             /* the machine has a link device */
	struct link_counts ls_rx;    /* the decoder's counts (frames, noise, refused) */
	uint64_t ls_sent;            /* frames sent */
	uint64_t ls_unread;          /* good frames dropped: nobody had /dev/link open */
	uint64_t ls_overrun;         /* good frames dropped: the receive queue was full */
	uint64_t ls_bad_baggage;     /* frames whose baggage baggage_import refused (read anyway) */
};

/* link_init: find the link device and take its interrupts.  Boot, after the interrupt controllers. */
void link_init(void);

/* link_input: one byte from the link device.  Interrupt context (arch_link_*, arch.h). */
void link_input(uint8_t c);

/*
 * link_file_open: /dev/link opened with open(2)'s flags (FILE_O_NONBLOCK:
 * reads do not wait).  0 with a new file in *out, or -ENODEV when the
 * machine has no link.  Thread context (kernel/vfs.c).
 */
int link_file_open(int flags, struct file **out);

/* link_stats_get: a copy of the counts.  Any thread. */
void link_stats_get(struct link_stats *st);

#endif
