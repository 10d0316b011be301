/*
 * link_fuzz.c - libFuzzer target for the link's frame decoder
 * (kernel/link_frame.c), the code that reads bytes from another machine.
 *
 * The input is the byte stream as it arrives on the wire: each byte is
 * pushed and every frame drained, as the receive interrupt does
 * (kernel/link.c).  Then a known frame (the marker) and a frame's worth of
 * zero bytes follow.  Findings, besides sanitizer reports:
 *   - a frame out of the decoder with a length over its limit, an unknown
 *     type, or pointers outside the decoder's buffer;
 *   - a frame that does not encode back to a frame decoding the same;
 *   - the decoder holding more than LINK_FRAME_MAX bytes;
 *   - the marker not coming out: whatever came before, the decoder must
 *     find the next well-formed frame (resynchronisation).
 * Byte 0 of the input steers: bit 0 feeds the stream twice (state carried
 * over); bit 1 repairs it first, so that the mutator reaches past the
 * checksums: at each "SL" the header's checksum is made right and, with
 * bit 2 also set, the frame's trailing one too when its lengths fit.
 *
 *   make link-fuzz FUZZ_SECONDS=N     (docs/fuzzing.md)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/link_frame.h"

#define MARKER_ID 0xc0ffee01u

static struct link_rx rx;
static uint8_t again[LINK_FRAME_MAX];
static int marker_seen;

static void check_frame(const struct link_frame *f)
{
	const uint8_t *lo = rx.lr_buf, *hi = rx.lr_buf + sizeof(rx.lr_buf);

	if (f->lf_baglen > LINK_BAG_MAX || f->lf_paylen > LINK_PAYLOAD_MAX)
		abort();
	if (f->lf_type != LINK_T_REQUEST && f->lf_type != LINK_T_RESPONSE)
		abort();
	if (f->lf_bag < lo || f->lf_bag + f->lf_baglen > hi)
		abort();
	if (f->lf_payload < lo || f->lf_payload + f->lf_paylen > hi)
		abort();
	size_t n = link_frame_encode(again, sizeof(again), f->lf_type, f->lf_reqid,
	                             f->lf_bag, f->lf_baglen, f->lf_payload, f->lf_paylen);
	if (n == 0)
		abort();
	static struct link_rx rx2;
	struct link_frame g;
	link_rx_init(&rx2);
	int got = 0;
	for (size_t i = 0; i < n; i++) {
		link_rx_push(&rx2, again[i]);
		while (link_rx_next(&rx2, &g)) {
			if (got++ || g.lf_reqid != f->lf_reqid || g.lf_paylen != f->lf_paylen ||
			    g.lf_baglen != f->lf_baglen || memcmp(g.lf_payload, f->lf_payload, g.lf_paylen) ||
			    memcmp(g.lf_bag, f->lf_bag, g.lf_baglen))
				abort();
		}
	}
	if (got != 1)
		abort();
	if (f->lf_reqid == MARKER_ID && f->lf_paylen == 6 && memcmp(f->lf_payload, "marker", 6) == 0)
		marker_seen = 1;
}

static void feed(const uint8_t *p, size_t n)
{
	struct link_frame f;

	for (size_t i = 0; i < n; i++) {
		link_rx_push(&rx, p[i]);
		while (link_rx_next(&rx, &f))
			check_frame(&f);
		if (rx.lr_have > LINK_FRAME_MAX)
			abort();
	}
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* repair: right checksums at every "SL" of buf (see the top). */
static void repair(uint8_t *buf, size_t n, int trailers)
{
	for (size_t i = 0; i + LINK_HDR_LEN <= n; i++) {
		if (buf[i] != LINK_MAGIC0 || buf[i + 1] != LINK_MAGIC1)
			continue;
		put32(buf + i + 12, link_crc32(buf + i, 12));
		size_t len = LINK_HDR_LEN + (buf[i + 8] | buf[i + 9] << 8) + (buf[i + 10] | buf[i + 11] << 8) +
		             LINK_TRAILER_LEN;
		if (trailers && i + len <= n)
			put32(buf + i + len - LINK_TRAILER_LEN, link_crc32(buf + i, len - LINK_TRAILER_LEN));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t tail[2 * LINK_FRAME_MAX];
	static uint8_t fixed[1 << 16];

	if (size > 0 && (data[0] & 2) && size <= sizeof(fixed)) {
		memcpy(fixed, data, size);
		repair(fixed, size, data[0] & 4);
		data = fixed;
	}
	link_rx_init(&rx);
	marker_seen = 0;
	feed(data, size);
	if (size > 0 && (data[0] & 1))
		feed(data, size);
	memset(tail, 0, sizeof(tail));
	size_t m = link_frame_encode(tail, sizeof(tail), LINK_T_RESPONSE, MARKER_ID,
	                             (const uint8_t *)"bag", 3, (const uint8_t *)"marker", 6);
	feed(tail, m + LINK_FRAME_MAX);
	if (!marker_seen)
		abort();
	return 0;
}
