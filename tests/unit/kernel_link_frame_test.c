/*
 * kernel_link_frame_test.c - the link's frames (kernel/link_frame.c): encoding,
 * decoding, and what the decoder does with bytes it must not trust.
 *
 * Each test builds frames with link_frame_encode, feeds bytes one at a time
 * as the receive interrupt does, and checks the frames that come out and
 * the counts of what was refused: a round trip, frames back to back, noise
 * before and between, each header field broken, a corrupted body, a length
 * that lies (the frames it would have swallowed still come out), every
 * truncation, and the encoder's limits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "kernel/link_frame.h"

static struct link_rx rx;
static uint8_t wire[8 * LINK_FRAME_MAX];

/* What came out of the decoder: each frame's reqid and first payload byte. */
static uint32_t got_id[64];
static size_t ngot;

static void feed(const uint8_t *p, size_t n)
{
	struct link_frame f;

	for (size_t i = 0; i < n; i++) {
		link_rx_push(&rx, p[i]);
		while (link_rx_next(&rx, &f)) {
			assert_true(ngot < 64);
			assert_true(f.lf_baglen <= LINK_BAG_MAX && f.lf_paylen <= LINK_PAYLOAD_MAX);
			got_id[ngot++] = f.lf_reqid;
		}
	}
}

static size_t frame(uint8_t *out, uint32_t id, const char *bag, const char *payload)
{
	size_t n = link_frame_encode(out, LINK_FRAME_MAX, LINK_T_REQUEST, id,
	                             (const uint8_t *)bag, strlen(bag),
	                             (const uint8_t *)payload, strlen(payload));
	assert_true(n > 0);
	return n;
}

static int reset(void **state)
{
	(void)state;
	link_rx_init(&rx);
	ngot = 0;
	return 0;
}

static void test_crc32_known_value(void **state)
{
	(void)state;
	assert_int_equal(link_crc32((const uint8_t *)"123456789", 9), 0xcbf43926u);
	assert_int_equal(link_crc32(NULL, 0), 0);
}

static void test_round_trip(void **state)
{
	struct link_frame f;
	size_t n = frame(wire, 42, "bagbytes", "hello");

	(void)state;
	assert_int_equal(n, LINK_HDR_LEN + 8 + 5 + LINK_TRAILER_LEN);
	for (size_t i = 0; i + 1 < n; i++) {
		link_rx_push(&rx, wire[i]);
		assert_false(link_rx_next(&rx, &f));
	}
	link_rx_push(&rx, wire[n - 1]);
	assert_true(link_rx_next(&rx, &f));
	assert_int_equal(f.lf_type, LINK_T_REQUEST);
	assert_int_equal(f.lf_reqid, 42);
	assert_int_equal(f.lf_baglen, 8);
	assert_memory_equal(f.lf_bag, "bagbytes", 8);
	assert_int_equal(f.lf_paylen, 5);
	assert_memory_equal(f.lf_payload, "hello", 5);
	assert_false(link_rx_next(&rx, &f));
	assert_int_equal(rx.lr_counts.lc_frames, 1);
	assert_int_equal(rx.lr_counts.lc_noise + rx.lr_counts.lc_bad_header + rx.lr_counts.lc_bad_crc, 0);
}

static void test_empty_frame_and_back_to_back(void **state)
{
	size_t n = 0;

	(void)state;
	for (uint32_t id = 1; id <= 5; id++)
		n += frame(wire + n, id, id % 2 ? "" : "b", id == 3 ? "" : "p");
	feed(wire, n);
	assert_int_equal(ngot, 5);
	for (uint32_t id = 1; id <= 5; id++)
		assert_int_equal(got_id[id - 1], id);
}

static void test_noise_before_and_between(void **state)
{
	static const uint8_t noise[] = "xxSSL\x01zzSLSL";
	size_t n = 0;

	(void)state;
	memcpy(wire, noise, sizeof(noise));
	n = sizeof(noise);
	n += frame(wire + n, 7, "", "a");
	memcpy(wire + n, noise, sizeof(noise));
	n += sizeof(noise);
	n += frame(wire + n, 8, "", "b");
	feed(wire, n);
	assert_int_equal(ngot, 2);
	assert_int_equal(got_id[0], 7);
	assert_int_equal(got_id[1], 8);
	assert_int_equal(rx.lr_counts.lc_frames, 2);
	assert_true(rx.lr_counts.lc_noise + rx.lr_counts.lc_bad_header > 0);
}

/* Each header byte changed (checksum, version, type, lengths): refused, the next frame still comes. */
static void test_header_fields_broken(void **state)
{
	(void)state;
	for (size_t at = 2; at < LINK_HDR_LEN; at++) {
		reset(NULL);
		size_t n = frame(wire, 1, "bag", "x");
		wire[at] ^= 0x40;
		n += frame(wire + n, 2, "", "y");
		feed(wire, n);
		assert_int_equal(ngot, 1);
		assert_int_equal(got_id[0], 2);
		assert_int_equal(rx.lr_counts.lc_bad_header, 1);
	}
}

/* A header whose checksum is right but whose fields are not: each refused for what it says. */
static void test_header_valid_crc_bad_fields(void **state)
{
	static const struct { size_t at; uint8_t v; } bad[] = {
		{ 2, 2 },                    /* version */
		{ 3, 0 }, { 3, 9 },          /* type */
		{ 9, 0x7f },                 /* baggage length > LINK_BAG_MAX */
		{ 11, 0x7f },                /* payload length > LINK_PAYLOAD_MAX */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		reset(NULL);
		size_t n = frame(wire, 1, "", "x");
		wire[bad[i].at] = bad[i].v;
		uint32_t crc = link_crc32(wire, 12);
		memcpy(wire + 12, &crc, 4);              /* little-endian host */
		feed(wire, n);
		assert_int_equal(ngot, 0);
		assert_int_equal(rx.lr_counts.lc_bad_header, 1);
	}
}

static void test_body_corrupted(void **state)
{
	size_t n = frame(wire, 1, "baggage", "payload");

	(void)state;
	wire[LINK_HDR_LEN + 3] ^= 1;
	n += frame(wire + n, 2, "", "");
	feed(wire, n);
	assert_int_equal(ngot, 1);
	assert_int_equal(got_id[0], 2);
	assert_int_equal(rx.lr_counts.lc_bad_crc, 1);
}

/*
 * A header that is well formed but claims a long body, followed by short
 * real frames: when its checksum fails the decoder rescans what it held
 * and every real frame inside comes out.
 */
static void test_lying_length_hides_frames(void **state)
{
	uint8_t big[LINK_FRAME_MAX];
	uint8_t pay[LINK_PAYLOAD_MAX];
	size_t n;

	(void)state;
	memset(pay, 'p', sizeof(pay));
	size_t bn = link_frame_encode(big, sizeof(big), LINK_T_RESPONSE, 99, NULL, 0, pay, sizeof(pay));
	memcpy(wire, big, LINK_HDR_LEN);             /* only its header */
	n = LINK_HDR_LEN;
	for (uint32_t id = 1; id <= 10; id++)
		n += frame(wire + n, id, "", "");
	assert_true(n < bn);
	memset(wire + n, 0, bn - n);                 /* pad to the claimed length */
	n = bn;
	feed(wire, n);
	assert_int_equal(rx.lr_counts.lc_bad_crc, 1);
	assert_int_equal(ngot, 10);
	for (uint32_t id = 1; id <= 10; id++)
		assert_int_equal(got_id[id - 1], id);
}

static void test_every_truncation_then_a_frame(void **state)
{
	uint8_t one[LINK_FRAME_MAX];
	size_t n1 = frame(one, 1, "bag", "pay");

	(void)state;
	for (size_t cut = 0; cut < n1; cut++) {
		reset(NULL);
		memcpy(wire, one, cut);
		size_t n = cut + frame(wire + cut, 2, "", "q");
		feed(wire, n);
		assert_true(ngot >= 1);
		assert_int_equal(got_id[ngot - 1], 2);
	}
}

static void test_encode_limits(void **state)
{
	uint8_t big[LINK_BAG_MAX + 1] = { 0 };
	uint8_t out[LINK_FRAME_MAX];

	(void)state;
	assert_int_equal(link_frame_encode(out, sizeof(out), 0, 1, NULL, 0, NULL, 0), 0);
	assert_int_equal(link_frame_encode(out, sizeof(out), 3, 1, NULL, 0, NULL, 0), 0);
	assert_int_equal(link_frame_encode(out, sizeof(out), LINK_T_REQUEST, 1, big, LINK_BAG_MAX + 1, NULL, 0), 0);
	assert_int_equal(link_frame_encode(out, sizeof(out), LINK_T_REQUEST, 1, NULL, 0, big, LINK_PAYLOAD_MAX + 1), 0);
	assert_int_equal(link_frame_encode(out, 19, LINK_T_REQUEST, 1, NULL, 0, NULL, 0), 0);
	assert_int_equal(link_frame_encode(out, 20, LINK_T_REQUEST, 1, NULL, 0, NULL, 0), 20);
	assert_int_equal(link_frame_encode(out, sizeof(out), LINK_T_RESPONSE, 1, big, LINK_BAG_MAX,
	                                   big, LINK_PAYLOAD_MAX), LINK_FRAME_MAX);
}

/* Pushing without draining never overflows: the oldest byte goes as noise. */
static void test_push_without_draining(void **state)
{
	(void)state;
	for (size_t i = 0; i < 3 * LINK_FRAME_MAX; i++)
		link_rx_push(&rx, LINK_MAGIC0);
	assert_int_equal(rx.lr_have, LINK_FRAME_MAX);
	assert_int_equal(rx.lr_counts.lc_noise, 2 * LINK_FRAME_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_crc32_known_value, reset),
		cmocka_unit_test_setup(test_round_trip, reset),
		cmocka_unit_test_setup(test_empty_frame_and_back_to_back, reset),
		cmocka_unit_test_setup(test_noise_before_and_between, reset),
		cmocka_unit_test_setup(test_header_fields_broken, reset),
		cmocka_unit_test_setup(test_header_valid_crc_bad_fields, reset),
		cmocka_unit_test_setup(test_body_corrupted, reset),
		cmocka_unit_test_setup(test_lying_length_hides_frames, reset),
		cmocka_unit_test_setup(test_every_truncation_then_a_frame, reset),
		cmocka_unit_test_setup(test_encode_limits, reset),
		cmocka_unit_test_setup(test_push_without_draining, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
