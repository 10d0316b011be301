/*
 * link_frame.h - the frames of the machine-to-machine link, and their decoder.
 *
 * Two Sonde machines joined by a serial line (kernel/link.c, docs/causal.md)
 * exchange frames.  A frame is a header, the sender's baggage (the causal
 * context of the thread that sent it, kernel/baggage.h), the message
 * payload and a checksum, all little-endian:
 *
 *   offset  size
 *     0      2    magic "SL" (0x53 0x4c): where a frame may start
 *     2      1    version (LINK_VERSION)
 *     3      1    type: LINK_T_REQUEST, LINK_T_RESPONSE (nothing else)
 *     4      4    request id (chosen by the client, echoed by the server)
 *     8      2    baggage length, at most LINK_BAG_MAX
 *    10      2    payload length, at most LINK_PAYLOAD_MAX
 *    12      4    CRC-32 of bytes 0..11 (the header alone)
 *    16      b    baggage bytes (opaque here: baggage_import checks them)
 *  16+b      p    payload bytes
 * 16+b+p     4    CRC-32 of everything before it
 *
 * The header has its own checksum so that a corrupted length is caught
 * before the decoder waits for bytes that will never come: a bad header
 * costs one byte of resynchronisation, not a frame's worth.
 *
 * The decoder (struct link_rx) reads an untrusted stream a byte at a time:
 * link_rx_push() appends a byte, link_rx_next() returns the good frames
 * that the bytes so far complete (call it until it says false: one byte
 * can complete several, when a refused frame turns out to have hidden real
 * ones).  A candidate frame always starts at the buffer's first byte; when
 * the candidate is refused, the decoder skips to the next magic byte after
 * its start and looks again, so after any garbage it finds the next
 * well-formed frame.  It never reads or writes outside the struct, never
 * allocates, and does bounded work per byte (each refusal drops at least
 * one byte and rescans at most LINK_FRAME_MAX).  Bytes skipped looking for
 * a magic are counted, and so is each refused header and each frame
 * refused by its checksum (struct link_counts).  It is freestanding (no
 * kernel calls): the kernel feeds it from the receive interrupt, the host's
 * unit tests and fuzzer (tests/unit/kernel_link_frame_test.c,
 * tests/fuzz/link_fuzz.c) feed it directly.  Not thread-safe: one stream,
 * one caller at a time.
 *
 * What the bytes of a good frame mean (whether the type is expected, what
 * the baggage contains) is for the caller to judge.
 */
#ifndef SONDE_LINK_FRAME_H
#define SONDE_LINK_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINK_MAGIC0      0x53        /* 'S' */
#define LINK_MAGIC1      0x4c        /* 'L' */
#define LINK_VERSION     1
#define LINK_HDR_LEN     16
#define LINK_TRAILER_LEN 4
#define LINK_BAG_MAX     256         /* >= BAGGAGE_MAX (kernel/baggage.h), checked in link.c */
#define LINK_PAYLOAD_MAX 256
#define LINK_FRAME_MAX   (LINK_HDR_LEN + LINK_BAG_MAX + LINK_PAYLOAD_MAX + LINK_TRAILER_LEN)

enum link_type {
	LINK_T_REQUEST = 1,
	LINK_T_RESPONSE = 2,
};

/* A decoded frame: pointers into the decoder's buffer, valid until the next byte. */
struct link_frame {
	uint8_t lf_type;
	uint32_t lf_reqid;
	const uint8_t *lf_bag;
	uint16_t lf_baglen;
	const uint8_t *lf_payload;
	uint16_t lf_paylen;
};

/* What the decoder saw. */
struct link_counts {
	uint64_t lc_frames;          /* good frames decoded */
	uint64_t lc_noise;           /* bytes skipped looking for a magic */
	uint64_t lc_bad_header;      /* headers refused: checksum, version, type or a length too big */
	uint64_t lc_bad_crc;         /* frames refused by their trailing checksum */
};

struct link_rx {
	uint8_t lr_buf[LINK_FRAME_MAX];
	size_t lr_have;              /* bytes in lr_buf: a candidate frame's start, or one whole frame */
	size_t lr_taken;             /* the last frame link_rx_next returned, dropped at the next call */
	struct link_counts lr_counts;
};

/* link_crc32: the CRC-32 (IEEE 802.3, reflected, as zlib) of n bytes. */
uint32_t link_crc32(const uint8_t *p, size_t n);

/*
 * link_frame_encode: write a frame of (type, reqid, bag, payload) into
 * out (cap bytes).  Returns its length, or 0 if a length is over its
 * limit, the type unknown, or cap too small.  Any context.
 */
size_t link_frame_encode(uint8_t *out, size_t cap, uint8_t type, uint32_t reqid,
                         const uint8_t *bag, size_t baglen, const uint8_t *payload, size_t paylen);

/* link_rx_init: an empty decoder, counts zero. */
void link_rx_init(struct link_rx *rx);

/*
 * link_rx_push: append one byte of the stream.  Call link_rx_next until
 * it returns false before the next push (if not, the oldest byte is
 * dropped as noise to make room).  Any context.
 */
void link_rx_push(struct link_rx *rx, uint8_t b);

/*
 * link_rx_next: the next good frame the bytes pushed so far complete, in
 * *out (pointing into rx, valid until the next push or next call): true;
 * false when the bytes so far complete none.  Any context; bounded work.
 */
bool link_rx_next(struct link_rx *rx, struct link_frame *out);

#endif
