/*
 * dtc_format.c - one printf/printa conversion, printed as libdtrace does.
 *
 * The compiler parsed each conversion into a dt_conv (flags, width,
 * precision, name, the C letter); this file rebuilds the C format from it
 * and prints one value with it.  The format is rebuilt in DTrace's order:
 * '#', '0', '-' (also for a negative dynamic width), '+', ' ', then the
 * width, the precision only if above 0, then "ll" and the letter, so the
 * quirks show as in DTrace ("%.0s" prints the whole string, of 0 and - the
 * later flag won at parse time).  What a conversion does with its value:
 *
 *   %d %i       signed if the value's type is, else as %u
 *   %hd %ld %c  sign-extended from the value's size (%c: its low byte)
 *   %o %u %x %p zero-extended from the value's size (%p is %llx)
 *   %a %A       the symbol, symbol+offset for %a
 *   %s %S %C    the string; %S and %C with C escapes (\n, \t, \ooo ...)
 *   %Y %T       nanoseconds since 1970 as "1970 Jan  1 00:00:00" (mdb's
 *               form) and "Thu, 01 Jan 1970 00:00:00 UTC" (RFC 822); the
 *               time zone is UTC, the only one Sonde has
 *   %k          a stack: one frame a line, indented by the width when
 *               left-justified, otherwise each frame padded to the width
 *
 * Context: thread context, the consumer's.  No state.
 *
 * Tests: tests/d/printf, tests/d/output, tests/d/pid (%A)
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

/* ---- the C format ---- */

void dtc_fmt_spec(const dt_conv *cv, int width, int prec, const char *len, char conv,
                  char *out, size_t size)
{
	bool text = conv == 's' || conv == 'c';
	int n = 0;

	out[n++] = '%';
	if ((cv->cv_flags & DT_PF_ALT) && !text)
		out[n++] = '#';
	if ((cv->cv_flags & DT_PF_ZPAD) && !text)
		out[n++] = '0';
	if (width < 0 || (cv->cv_flags & DT_PF_LEFT))
		out[n++] = '-';
	if (cv->cv_flags & DT_PF_SPOS)
		out[n++] = '+';
	if (cv->cv_flags & DT_PF_SPACE)
		out[n++] = ' ';
	out[n] = 0;
	if (width != 0)
		n += ksnprintf(out + n, size - (size_t)n, "%d", width < 0 ? -width : width);
	if (prec > 0)
		n += ksnprintf(out + n, size - (size_t)n, ".%d", prec);
	ksnprintf(out + n, size - (size_t)n, "%s%c", len, conv);
}

/* ---- values ---- */

static int64_t sign_extend(int64_t v, uint32_t size)
{
	switch (size) {
	case 1: return (int8_t)v;
	case 2: return (int16_t)v;
	case 4: return (int32_t)v;
	default: return v;
	}
}

static uint64_t zero_extend(int64_t v, uint32_t size)
{
	switch (size) {
	case 1: return (uint8_t)v;
	case 2: return (uint16_t)v;
	case 4: return (uint32_t)v;
	default: return (uint64_t)v;
	}
}

static bool is_dint(const dt_conv *cv)
{
	return strcmp(cv->cv_name, "d") == 0 || strcmp(cv->cv_name, "i") == 0;
}

static void print_int(const dt_conv *cv, const struct dtc_value *v, int width, int prec)
{
	char spec[48];
	char conv = cv->cv_ofmt;
	bool sgn = cv->cv_kind == DT_CONV_SINT && (!is_dint(cv) || v->dv_signed);

	if (cv->cv_kind == DT_CONV_SINT && is_dint(cv) && !v->dv_signed)
		conv = 'u';
	if (conv == 'c') {
		dtc_fmt_spec(cv, width, prec, "", 'c', spec, sizeof(spec));
		dtc_out(spec, (int)(char)v->dv_int);
		return;
	}
	dtc_fmt_spec(cv, width, prec, "ll", conv, spec, sizeof(spec));
	if (sgn)
		dtc_out(spec, (long long)sign_extend(v->dv_int, v->dv_size));
	else
		dtc_out(spec, (unsigned long long)zero_extend(v->dv_int, v->dv_size));
}

static void print_str(const dt_conv *cv, const char *s, int width, int prec)
{
	char spec[48];

	dtc_fmt_spec(cv, width, prec, "", 's', spec, sizeof(spec));
	dtc_out(spec, s);
}

/*
 * escape: the first n bytes of s (up to a NUL) with C escapes: \a \b \f
 * \n \r \t \v \" \\ by letter, space and '!'..'~' as they are, anything
 * else as three octal digits.
 */
static void escape(const char *s, size_t n, char *out, size_t size)
{
	static const char letters[] = "\aa\bb\ff\nn\rr\tt\vv\"\"\\\\";
	size_t k = 0;

	for (size_t i = 0; i < n && s[i] != 0 && k + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *l = c ? strchr(letters, c) : NULL;
		if (l != NULL && (l - letters) % 2 == 0) {
			out[k++] = '\\';
			out[k++] = l[1];
		} else if (c == ' ' || (c >= '!' && c <= '~')) {
			out[k++] = (char)c;
		} else {
			k += (size_t)ksnprintf(out + k, size - k, "\\%03o", c);
		}
	}
	out[k] = 0;
}

/* ---- time ---- */

struct civil {
	int year, mon, mday, hour, min, sec, wday, yday;
};

static bool leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* civil_of: the UTC calendar date of t seconds since 1970 (t >= 0). */
static void civil_of(uint64_t t, struct civil *c)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	uint64_t days = t / 86400, s = t % 86400;

	c->hour = (int)(s / 3600);
	c->min = (int)(s / 60 % 60);
	c->sec = (int)(s % 60);
	c->wday = (int)((days + 4) % 7);            /* 1970-01-01 was a Thursday */
	c->year = 1970;
	while (days >= (uint64_t)(leap(c->year) ? 366 : 365)) {
		days -= leap(c->year) ? 366 : 365;
		c->year++;
	}
	c->yday = (int)days;
	for (c->mon = 0; c->mon < 11; c->mon++) {
		int md = mdays[c->mon] + (c->mon == 1 && leap(c->year));
		if (days < (uint64_t)md)
			break;
		days -= (uint64_t)md;
	}
	c->mday = (int)days + 1;
}

/* iso_year: the ISO 8601 week-based year of c (strftime's %G). */
static int iso_year(const struct civil *c)
{
	int thursday = c->yday - (c->wday + 6) % 7 + 3;

	if (thursday < 0)
		return c->year - 1;
	if (thursday >= (leap(c->year) ? 366 : 365))
		return c->year + 1;
	return c->year;
}

static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
static const char *const wdays[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };

static void time_text(bool rfc822, uint64_t ns, char *out, size_t size)
{
	struct civil c;

	civil_of(ns / 1000000000, &c);
	if (rfc822)
		ksnprintf(out, size, "%s, %02d %s %d %02d:%02d:%02d UTC", wdays[c.wday], c.mday,
		          months[c.mon], iso_year(&c), c.hour, c.min, c.sec);
	else
		ksnprintf(out, size, "%d %s %2d %02d:%02d:%02d", c.year, months[c.mon], c.mday,
		          c.hour, c.min, c.sec);
}

/* ---- one conversion ---- */

static void print_stack_conv(const dt_conv *cv, const struct dtc_value *v, int width)
{
	char spec[48];
	int indent = 0;

	if (width < 0)
		indent = -width;
	else if (cv->cv_flags & DT_PF_LEFT)
		indent = width;
	dtc_fmt_spec(cv, indent ? 0 : width, 0, "", 's', spec, sizeof(spec));
	if (v->dv_user)
		dtc_print_ustack_fmt(v->dv_pcs, v->dv_npcs, indent, spec);
	else
		dtc_print_stack_fmt(v->dv_pcs, v->dv_npcs, indent, spec);
}

/*
 * print_float: %e %f %g of a float (4 bytes), double (8) or long double
 * (16), formatted from its bytes (dtc_float.c).  A float or double came as
 * a 64-bit integer record: its bits are the value's, not the record's first
 * bytes (those are the high half on a big-endian machine).  A precision
 * written as ".0" or "." is 0, which cv_prec cannot tell from none.
 */
static void print_float(const dt_conv *cv, const struct dtc_value *v, int width, int prec)
{
	char spec[48];
	uint32_t size = v->dv_size == 4 || v->dv_size == 16 ? v->dv_size : 8;
	bool zero = prec == 0 && !(cv->cv_flags & DT_PF_DYNP) && strchr(cv->cv_spec, '.') != NULL;
	const uint8_t *raw = v->dv_raw;
	uint8_t bits[8];
	char *text;

	if (raw == NULL)
		return;
	if (v->dv_kind == DTC_VAL_INT && size <= 8) {
		dtc_float_of_int((uint64_t)v->dv_int, size, bits);
		raw = bits;
	}
	dtc_fmt_spec(cv, width, prec, zero ? "." : "", cv->cv_ofmt, spec, sizeof(spec));
	text = kmalloc(6000);
	if (text == NULL)
		return;
	dtc_float_format(text, 6000, spec, raw, size);
	dtc_out("%s", text);
	kfree(text);
}

void dtc_conv_print(const dt_conv *cv, const struct dtc_value *v, int width, int prec)
{
	char text[512];

	switch (cv->cv_kind) {
	case DT_CONV_PCT:
		dtc_out("%%");
		return;
	case DT_CONV_STR:
		print_str(cv, v->dv_kind == DTC_VAL_STR ? v->dv_str : "", width, prec);
		return;
	case DT_CONV_ESTR: case DT_CONV_ECHR: {
		char c = (char)v->dv_int;
		if (cv->cv_kind == DT_CONV_ECHR)
			escape(&c, 1, text, sizeof(text));
		else
			escape(v->dv_kind == DTC_VAL_STR ? v->dv_str : "", SIZE_MAX, text, sizeof(text));
		print_str(cv, text, width, prec);
		return;
	}
	case DT_CONV_SYM:
		if (v->dv_uaddr) {                 /* %A: prog`func+0x1c, named by dtc_uaddr_value */
			print_str(cv, v->dv_str != NULL ? v->dv_str : "", width, prec);
			return;
		}
		dtc_print_sym((uint64_t)v->dv_int, cv->cv_name[0] == 'a', text, sizeof(text));
		print_str(cv, cv->cv_name[0] == 'A' && strchr(text, '`') ? strchr(text, '`') + 1 : text,
		          width, prec);
		return;
	case DT_CONV_Y: case DT_CONV_T:
		time_text(cv->cv_kind == DT_CONV_T, (uint64_t)v->dv_int, text, sizeof(text));
		print_str(cv, text, width, prec);
		return;
	case DT_CONV_FLT:
		print_float(cv, v, width, prec);
		return;
	case DT_CONV_K:
		if (v->dv_kind == DTC_VAL_STACK)
			print_stack_conv(cv, v, width);
		return;
	default:
		print_int(cv, v, width, prec);
		return;
	}
}
