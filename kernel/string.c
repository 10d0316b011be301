/*
 * string.c - memory and string helpers.
 *
 * The kernel is freestanding, so it supplies the few C library functions gcc
 * may call on its own (memcpy, memset, memmove, memcmp) and the string
 * helpers the rest of the tree uses.  Simple byte loops: clarity first.
 * On the host (SONDE_HOST) only the k-prefixed helpers are built.
 *
 * Tests: tests/unit/kernel_string_test.c
 */
#define SONDE_STRING_IMPL               /* defines memcpy & co.: no builtin macros */
#include "kernel/klib.h"

#ifndef SONDE_HOST
/*
 * memcpy, memmove and memset move eight bytes at a time once the
 * destination is aligned (these run on every probe firing).  gcc must not
 * turn their loops back into calls to themselves.
 */
#define NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))
typedef uint64_t __attribute__((may_alias, aligned(1))) word_t;

NO_LIBCALLS void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n > 0 && ((uintptr_t)d & 7) != 0) {
		*d++ = *s++;
		n--;
	}
	for (; n >= 8; n -= 8, d += 8, s += 8)
		*(word_t *)d = *(const word_t *)s;
	while (n-- > 0)
		*d++ = *s++;
	return dst;
}

NO_LIBCALLS void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n-- > 0)
		d[n] = s[n];
	return dst;
}

NO_LIBCALLS void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint64_t w = 0x0101010101010101UL * (unsigned char)c;

	while (n > 0 && ((uintptr_t)d & 7) != 0) {
		*d++ = (unsigned char)c;
		n--;
	}
	for (; n >= 8; n -= 8, d += 8)
		*(word_t *)d = w;
	while (n-- > 0)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n > 0; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n > 0; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (*a == 0)
			return 0;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (*s == 0)
			return NULL;
	}
}
#endif

size_t kstrlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (size > 0) {
		size_t k = n < size - 1 ? n : size - 1;
		memcpy(dst, src, k);
		dst[k] = 0;
	}
	return n;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

bool kstrtou64(const char *s, uint64_t *out)
{
	uint64_t v = 0, base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (*s == 0)
		return false;
	for (; *s; s++) {
		uint64_t d = (uint64_t)digit_value(*s);
		if (d >= base || v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}
