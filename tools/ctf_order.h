/*
 * tools/ctf_order.h: a CTF v3 dict's byte order, and making it the image's.
 *
 * The kernel's reader (kernel/ctf.c) reads one fixed format on every
 * machine: little-endian.  ld writes its merged CTF in the byte order of the
 * machine ld runs on (libctf writes native order; gcc's per-object .ctf is
 * in the target's order and ld flips it on reading), so a dict can reach
 * tools/ctf_flatten.c in either order.  These functions tell the two apart
 * by the magic number's bytes (f2 df little-endian, df f2 big-endian) and
 * rewrite a big-endian dict as little-endian, field by field.
 *
 * Everything is read and written a byte at a time, so the result does not
 * depend on the byte order of the machine this runs on (tests/unit runs it
 * on both).  Nothing here allocates.
 *
 * Context: host tools (ctf_flatten) and host unit tests.
 */
#ifndef SONDE_CTF_ORDER_H
#define SONDE_CTF_ORDER_H

#include <stddef.h>
#include <stdint.h>

enum { CTF_ORDER_NONE, CTF_ORDER_LITTLE, CTF_ORDER_BIG };

/* The order of the dict starting at d (len bytes): CTF_ORDER_*, NONE if
 * it is too short or its magic number is neither order's. */
int ctf_order_detect(const uint8_t *d, size_t len);

/* The 32-bit word at p, in byte order order (CTF_ORDER_LITTLE or _BIG). */
uint32_t ctf_order_word(const uint8_t *p, int order);

/*
 * ctf_order_make_le: rewrite the uncompressed dict d[0..len) in place as
 * little-endian.  A little-endian dict is left as it is.  Returns 0, or -1
 * with *why set (a compressed dict, a section or type record out of
 * bounds, an unknown type kind): then d is partly rewritten and must not be
 * used.  Strings are bytes and stay; every other field is a 32-bit word,
 * except a slice's offset and width (16 bits each).
 */
int ctf_order_make_le(uint8_t *d, size_t len, const char **why);

#endif /* SONDE_CTF_ORDER_H */
