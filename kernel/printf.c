/*
 * printf.c - formatted output.
 *
 * kvsnprintf() is the one formatter; kprintf() formats into a buffer on the
 * stack and writes it to the console in one piece.  The conversion is split
 * into parsing a conversion specification (struct fmt_spec) and emitting one
 * converted field with padding.  Host-testable (tests/unit/kernel_printf_test.c).
 *
 * Tests: tests/unit/kernel_printf_test.c
 */
#include "kernel/klib.h"

struct fmt_spec {
	bool left, zero, plus, space, alt;
	int width;
	int prec;                    /* -1 when absent */
	int length;                  /* 0, 'H' (hh), 'h', 'l', 'L' (ll), 'z', 'j', 't' */
	char conv;
};

struct out {
	char *buf;
	size_t size;
	size_t len;                  /* bytes the full output has so far */
};

static void out_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_repeat(struct out *o, char c, int n)
{
	while (n-- > 0)
		out_char(o, c);
}

static const char *spec_parse(const char *f, struct fmt_spec *sp, va_list *ap)
{
	*sp = (struct fmt_spec){ .prec = -1 };
	for (;; f++) {
		if (*f == '-') sp->left = true;
		else if (*f == '0') sp->zero = true;
		else if (*f == '+') sp->plus = true;
		else if (*f == ' ') sp->space = true;
		else if (*f == '#') sp->alt = true;
		else break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) { sp->left = true; sp->width = -sp->width; }
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->prec = 0;
		if (*f == '*') { sp->prec = va_arg(*ap, int); f++; if (sp->prec < 0) sp->prec = -1; }
		while (*f >= '0' && *f <= '9')
			sp->prec = sp->prec * 10 + (*f++ - '0');
	}
	if (f[0] == 'h' && f[1] == 'h') { sp->length = 'H'; f += 2; }
	else if (f[0] == 'l' && f[1] == 'l') { sp->length = 'L'; f += 2; }
	else if (*f == 'h' || *f == 'l' || *f == 'z' || *f == 'j' || *f == 't') sp->length = *f++;
	sp->conv = *f;
	return *f ? f + 1 : f;
}

static uint64_t arg_unsigned(const struct fmt_spec *sp, va_list *ap)
{
	switch (sp->length) {
	case 'H': return (unsigned char)va_arg(*ap, unsigned int);
	case 'h': return (unsigned short)va_arg(*ap, unsigned int);
	case 'l': case 'L': case 'z': case 'j': case 't': return va_arg(*ap, unsigned long long);
	default: return va_arg(*ap, unsigned int);
	}
}

static int64_t arg_signed(const struct fmt_spec *sp, va_list *ap)
{
	switch (sp->length) {
	case 'H': return (signed char)va_arg(*ap, int);
	case 'h': return (short)va_arg(*ap, int);
	case 'l': case 'L': case 'z': case 'j': case 't': return va_arg(*ap, long long);
	default: return va_arg(*ap, int);
	}
}

/* emit_field: prefix, zero padding to precision, digits, all padded to width. */
static void emit_field(struct out *o, const struct fmt_spec *sp, const char *prefix,
                       const char *digits, int ndigits)
{
	int plen = (int)strlen(prefix);
	int zeros = sp->prec > ndigits ? sp->prec - ndigits : 0;
	int total = plen + zeros + ndigits;

	if (sp->zero && !sp->left && sp->prec < 0 && sp->width > total) {
		zeros += sp->width - total;
		total = sp->width;
	}
	if (!sp->left)
		out_repeat(o, ' ', sp->width - total);
	for (int i = 0; i < plen; i++)
		out_char(o, prefix[i]);
	out_repeat(o, '0', zeros);
	for (int i = 0; i < ndigits; i++)
		out_char(o, digits[i]);
	if (sp->left)
		out_repeat(o, ' ', sp->width - total);
}

static void emit_number(struct out *o, const struct fmt_spec *sp, uint64_t v, bool neg)
{
	char digits[24], rev[24];
	const char *set = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned base = (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p') ? 16 :
	                sp->conv == 'o' ? 8 : 10;
	int n = 0;
	const char *prefix = "";

	while (v != 0) {
		rev[n++] = set[v % base];
		v /= base;
	}
	if (n == 0 && sp->prec != 0)
		rev[n++] = '0';
	for (int i = 0; i < n; i++)
		digits[i] = rev[n - 1 - i];
	if (neg) prefix = "-";
	else if (sp->plus && (sp->conv == 'd' || sp->conv == 'i')) prefix = "+";
	else if (sp->space && (sp->conv == 'd' || sp->conv == 'i')) prefix = " ";
	else if ((sp->alt && base == 16 && n > 0 && digits[0] != '0') || sp->conv == 'p')
		prefix = sp->conv == 'X' ? "0X" : "0x";
	else if (sp->alt && base == 8 && (n == 0 || digits[0] != '0'))
		prefix = "0";
	emit_field(o, sp, prefix, digits, n);
}

static void emit_string(struct out *o, const struct fmt_spec *sp, const char *s)
{
	int n = 0;
	struct fmt_spec plain = *sp;

	if (s == NULL)
		s = "(null)";
	while (s[n] && (sp->prec < 0 || n < sp->prec))
		n++;
	plain.zero = false;
	plain.prec = -1;
	emit_field(o, &plain, "", s, n);
}

static void emit_conversion(struct out *o, const struct fmt_spec *sp, va_list *ap)
{
	char c;

	switch (sp->conv) {
	case 'd': case 'i': {
		int64_t v = arg_signed(sp, ap);
		emit_number(o, sp, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
		break;
	}
	case 'u': case 'x': case 'X': case 'o':
		emit_number(o, sp, arg_unsigned(sp, ap), false);
		break;
	case 'p':
		emit_number(o, sp, (uint64_t)va_arg(*ap, void *), false);
		break;
	case 's':
		emit_string(o, sp, va_arg(*ap, const char *));
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		emit_field(o, sp, "", &c, 1);
		break;
	case '%':
		out_char(o, '%');
		break;
	default:                                /* unknown: print it as it stands */
		out_char(o, '%');
		if (sp->conv)
			out_char(o, sp->conv);
		break;
	}
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	struct fmt_spec sp;
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		if (*fmt != '%') {
			out_char(&o, *fmt++);
			continue;
		}
		fmt = spec_parse(fmt + 1, &sp, &args);
		emit_conversion(&o, &sp, &args);
	}
	va_end(args);
	if (size > 0)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
