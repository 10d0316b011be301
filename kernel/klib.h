/*
 * klib.h - the kernel's basic library: memory and string helpers, printf,
 * panic and assertions.  Everything here is freestanding and also builds on
 * the host (tests/unit) so that it can be tested with cmocka.
 */
#ifndef SONDE_KLIB_H
#define SONDE_KLIB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a)   (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b)       ((a) < (b) ? (a) : (b))
#define MAX(a, b)       ((a) > (b) ? (a) : (b))
#define ALIGN_UP(x, a)  (((x) + (a) - 1) & ~((uint64_t)(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((uint64_t)(a) - 1))
#define NORETURN        __attribute__((noreturn))
#define PRINTFLIKE(f, a) __attribute__((format(printf, f, a)))
#define UNUSED          __attribute__((unused))
/* NOTRACE: may run while a probe fires or text is patched: fbt never instruments it. */
#define NOTRACE         __attribute__((section(".text.notrace"), noinline))

#ifndef SONDE_HOST
/* The C library names, provided by kernel/string.c in the kernel. */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
/*
 * -ffreestanding turns off gcc's knowledge of these, so memcpy(p, &v, 8)
 * would be a call.  Through the builtins a copy or fill of a small known
 * size is a move or two, and any other still calls kernel/string.c (which
 * defines the functions themselves, so it opts out).
 */
#ifndef SONDE_STRING_IMPL
#define memcpy(d, s, n) __builtin_memcpy((d), (s), (n))
#define memset(d, c, n) __builtin_memset((d), (c), (n))
#define memcmp(a, b, n) __builtin_memcmp((a), (b), (n))
#endif
#else
#include <string.h>
#endif

/* kstrlcpy: copy at most size-1 bytes and always terminate; returns strlen(src). */
size_t kstrlcpy(char *dst, const char *src, size_t size);

/*
 * kstrtou64: parse an unsigned number in base 10, or 16 with a 0x prefix.
 * Returns true and stores *out only if the whole string is a number that fits.
 */
bool kstrtou64(const char *s, uint64_t *out);

/*
 * kvsnprintf/ksnprintf: C's snprintf for the conversions the kernel uses:
 * %d %i %u %x %X %o %p %s %c %%, flags '-' '0' '+' ' ' '#', width and
 * precision (also '*'), length modifiers hh h l ll z j t.  Always terminates
 * when size > 0; returns the length the full output would have had.
 */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) PRINTFLIKE(3, 4);

#ifndef SONDE_HOST
/* kprintf: format to the console.  Any context; output of one call is not interleaved. */
int kprintf(const char *fmt, ...) PRINTFLIKE(1, 2);
int kvprintf(const char *fmt, va_list ap);
#endif

/* panic: print "panic: ..." with registers and a backtrace, power off with failure. */
NORETURN void panic(const char *fmt, ...) PRINTFLIKE(1, 2);

#define KASSERT(cond) \
	do { if (!(cond)) panic("assertion failed: %s (%s:%d)", #cond, __FILE__, __LINE__); } while (0)

#endif
