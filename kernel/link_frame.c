/*
 * link_frame.c - encoding and decoding the link's frames (the format and
 * the decoder's contract are in link_frame.h).
 *
 * Order: the checksum, the little-endian fields, the encoder, then the
 * decoder: rx_judge decides what the bytes at the buffer's start are
 * (too few yet, a good frame, or refused), rx_skip drops a refused
 * candidate up to the next magic byte, and link_rx_next loops the two.
 *
 * Freestanding: built into the kernel and, with SONDE_HOST, into the
 * host's unit test and fuzzer.
 *
 * Tests: tests/unit/kernel_link_frame_test.c; make link-fuzz
 *        (tests/fuzz/link_fuzz.c)
 */
#include "kernel/klib.h"
#include "kernel/link_frame.h"

/* --- CRC-32 (bit at a time: frames are short, and no table to trust) ---------------- */

uint32_t link_crc32(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static bool type_known(uint8_t type)
{
	return type == LINK_T_REQUEST || type == LINK_T_RESPONSE;
}

/* --- encoding --------------------------------------------------------------------------- */

size_t link_frame_encode(uint8_t *out, size_t cap, uint8_t type, uint32_t reqid,
                         const uint8_t *bag, size_t baglen, const uint8_t *payload, size_t paylen)
{
	if (!type_known(type) || baglen > LINK_BAG_MAX || paylen > LINK_PAYLOAD_MAX)
		return 0;
	size_t len = LINK_HDR_LEN + baglen + paylen + LINK_TRAILER_LEN;
	if (len > cap)
		return 0;
	out[0] = LINK_MAGIC0;
	out[1] = LINK_MAGIC1;
	out[2] = LINK_VERSION;
	out[3] = type;
	put32(out + 4, reqid);
	put16(out + 8, (uint16_t)baglen);
	put16(out + 10, (uint16_t)paylen);
	put32(out + 12, link_crc32(out, 12));
	if (baglen > 0)
		memcpy(out + LINK_HDR_LEN, bag, baglen);
	if (paylen > 0)
		memcpy(out + LINK_HDR_LEN + baglen, payload, paylen);
	put32(out + len - LINK_TRAILER_LEN, link_crc32(out, len - LINK_TRAILER_LEN));
	return len;
}

/* --- decoding ---------------------------------------------------------------------------- */

enum rx_verdict { RX_MORE, RX_GOOD, RX_NOISE, RX_BAD_HEADER, RX_BAD_CRC };

void link_rx_init(struct link_rx *rx)
{
	memset(rx, 0, sizeof(*rx));
}

/* rx_header_ok: the 16 header bytes at p are a header we accept; *len its frame's length. */
static bool rx_header_ok(const uint8_t *p, size_t *len)
{
	uint16_t baglen = get16(p + 8), paylen = get16(p + 10);

	if (get32(p + 12) != link_crc32(p, 12))
		return false;
	if (p[2] != LINK_VERSION || !type_known(p[3]))
		return false;
	if (baglen > LINK_BAG_MAX || paylen > LINK_PAYLOAD_MAX)
		return false;
	*len = LINK_HDR_LEN + baglen + paylen + LINK_TRAILER_LEN;
	return true;
}

/* rx_judge: what the lr_have bytes at the buffer's start are; *len a good frame's length. */
static enum rx_verdict rx_judge(const struct link_rx *rx, size_t *len)
{
	const uint8_t *p = rx->lr_buf;

	if (rx->lr_have >= 1 && p[0] != LINK_MAGIC0)
		return RX_NOISE;
	if (rx->lr_have >= 2 && p[1] != LINK_MAGIC1)
		return RX_NOISE;
	if (rx->lr_have < LINK_HDR_LEN)
		return RX_MORE;
	if (!rx_header_ok(p, len))
		return RX_BAD_HEADER;
	if (rx->lr_have < *len)
		return RX_MORE;
	if (get32(p + *len - LINK_TRAILER_LEN) != link_crc32(p, *len - LINK_TRAILER_LEN))
		return RX_BAD_CRC;
	return RX_GOOD;
}

/* rx_drop: drop the first n bytes of the buffer. */
static void rx_drop(struct link_rx *rx, size_t n)
{
	memmove(rx->lr_buf, rx->lr_buf + n, rx->lr_have - n);
	rx->lr_have -= n;
}

/* rx_skip: the candidate at the start is refused: drop it up to the next magic byte after its start. */
static void rx_skip(struct link_rx *rx, enum rx_verdict why)
{
	size_t n = 1;

	while (n < rx->lr_have && rx->lr_buf[n] != LINK_MAGIC0)
		n++;
	if (why == RX_NOISE)
		rx->lr_counts.lc_noise += n;
	else if (why == RX_BAD_HEADER)
		rx->lr_counts.lc_bad_header++;
	else
		rx->lr_counts.lc_bad_crc++;
	rx_drop(rx, n);
}

/* rx_take_last: drop the frame link_rx_next returned last, if any. */
static void rx_take_last(struct link_rx *rx)
{
	if (rx->lr_taken > 0) {
		rx_drop(rx, rx->lr_taken);
		rx->lr_taken = 0;
	}
}

void link_rx_push(struct link_rx *rx, uint8_t b)
{
	rx_take_last(rx);
	if (rx->lr_have == sizeof(rx->lr_buf)) {     /* the caller did not drain: make room */
		rx->lr_counts.lc_noise++;
		rx_drop(rx, 1);
	}
	rx->lr_buf[rx->lr_have++] = b;
}

bool link_rx_next(struct link_rx *rx, struct link_frame *out)
{
	size_t len = 0;

	rx_take_last(rx);
	for (;;) {
		enum rx_verdict v = rx_judge(rx, &len);
		if (v == RX_MORE || rx->lr_have == 0)
			return false;
		if (v == RX_GOOD)
			break;
		rx_skip(rx, v);
	}
	const uint8_t *p = rx->lr_buf;
	*out = (struct link_frame){
		.lf_type = p[3], .lf_reqid = get32(p + 4),
		.lf_baglen = get16(p + 8), .lf_paylen = get16(p + 10),
		.lf_bag = p + LINK_HDR_LEN, .lf_payload = p + LINK_HDR_LEN + get16(p + 8),
	};
	rx->lr_taken = len;
	rx->lr_counts.lc_frames++;
	return true;
}
