/*
 * dtc_float.c - printf's %e %E %f %g %G of D's float, double and long double.
 *
 * D has floating-point types but no floating-point arithmetic: a value of
 * such a type is only ever bytes, loaded and recorded by probe context as
 * they lie in memory.  The consumer formats them here, as C's printf would,
 * from the bytes: IEEE single (4 bytes), IEEE double (8) and long double
 * (16 bytes) in the machine's format, which arch/arch.h names
 * (ARCH_LDOUBLE_FORMAT): x86's 80-bit extended (the value in the first 10
 * bytes, a 64-bit mantissa with its integer bit) or IEEE quad (SPARC V9's:
 * a 113-bit mantissa, its top bit implied, and a 15-bit exponent).  Every
 * format is read in the machine's byte order.
 *
 * The kernel is built without the FPU (-mgeneral-regs-only), so this is
 * done exactly with integers: the value is m * 2^e, its integer part and
 * fraction are big integers, and decimal digits come from dividing the
 * first by 10^9 and multiplying the second by 10.  Rounding is to nearest,
 * ties to even, on the exact value (what glibc's printf does), so every
 * result is the correctly rounded one.  Precision is capped at
 * DTC_FLOAT_MAXPREC digits.
 *
 * Context: the consumer (thread context); allocates its work space with
 * kmalloc for the duration of one call.
 *
 * Tests: tests/unit/dtc_float_test.c (both long double formats); tests/unit/dtc_byteorder_test.c
 *        (the machine's own, against its C library); tests/d/types; tests/d/sparc64
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

#define DTC_FLOAT_MAXPREC 500
#define BIG_LIMBS 520                       /* 16,640 bits: a long double's range (either format) */
#define DIGITS_MAX (5000 + 5000 + DTC_FLOAT_MAXPREC + 8)
#define DTC_FLOAT_MAXTEXT (5000 + DTC_FLOAT_MAXPREC + 16)

/* A non-negative big integer, little-endian 32-bit limbs. */
struct big {
	uint32_t b_limb[BIG_LIMBS];
	uint32_t b_n;                       /* limbs in use; 0 is zero */
};

/* The exact decimal digits of a finite value: integer part, then fraction. */
struct digits {
	struct big d_frac;                  /* fraction = d_frac / 2^d_fbits */
	uint32_t d_fbits;
	char d_dg[DIGITS_MAX];
	char d_rev[5008];                   /* integer digits, least significant first */
	char d_text[DTC_FLOAT_MAXTEXT];     /* the number, before sign and padding */
	uint32_t d_len;                     /* digits generated */
	uint32_t d_nint;                    /* of which the integer part */
};

/* A parsed C conversion spec. */
struct fspec {
	bool fs_left, fs_plus, fs_space, fs_alt, fs_zero;
	int fs_width, fs_prec;              /* -1: none */
	char fs_conv;
};

/* ---- big integers ---- */

static void big_trim(struct big *b)
{
	while (b->b_n > 0 && b->b_limb[b->b_n - 1] == 0)
		b->b_n--;
}

/* b = m << shift, m a 128-bit mantissa (m[0] its low half, m[1] its high) */
static void big_set_shifted(struct big *b, const uint64_t m[2], uint32_t shift)
{
	uint32_t w = shift / 32, s = shift % 32;
	uint32_t limb[4] = { (uint32_t)m[0], (uint32_t)(m[0] >> 32), (uint32_t)m[1], (uint32_t)(m[1] >> 32) };
	uint32_t carry = 0;

	memset(b->b_limb, 0, sizeof(b->b_limb));
	b->b_n = 0;
	if ((m[0] == 0 && m[1] == 0) || w + 5 > BIG_LIMBS)
		return;
	for (int i = 0; i < 4; i++) {
		b->b_limb[w + (uint32_t)i] = limb[i] << s | carry;
		carry = s ? limb[i] >> (32 - s) : 0;
	}
	b->b_limb[w + 4] = carry;
	b->b_n = w + 5;
	big_trim(b);
}

/* b = b >> shift */
static void big_shift_right(struct big *b, uint32_t shift)
{
	uint32_t w = shift / 32, s = shift % 32;

	if (w >= b->b_n) {
		b->b_n = 0;
		return;
	}
	for (uint32_t i = 0; i + w < b->b_n; i++) {
		uint64_t v = b->b_limb[i + w];
		if (i + w + 1 < b->b_n)
			v |= (uint64_t)b->b_limb[i + w + 1] << 32;
		b->b_limb[i] = (uint32_t)(v >> s);
	}
	for (uint32_t i = b->b_n - w; i < b->b_n; i++)
		b->b_limb[i] = 0;
	b->b_n -= w;
	big_trim(b);
}

/* b = b mod 2^bits */
static void big_keep_low(struct big *b, uint32_t bits)
{
	uint32_t w = bits / 32, s = bits % 32;

	if (w >= b->b_n)
		return;
	b->b_limb[w] &= (1u << s) - 1;
	for (uint32_t i = w + 1; i < b->b_n; i++)
		b->b_limb[i] = 0;
	big_trim(b);
}

/* b = b * k + add; k, add < 2^32 */
static void big_muladd(struct big *b, uint32_t k, uint32_t add)
{
	uint64_t carry = add;

	for (uint32_t i = 0; i < b->b_n; i++) {
		uint64_t v = (uint64_t)b->b_limb[i] * k + carry;
		b->b_limb[i] = (uint32_t)v;
		carry = v >> 32;
	}
	if (carry != 0 && b->b_n < BIG_LIMBS)
		b->b_limb[b->b_n++] = (uint32_t)carry;
}

/* b = b / k; returns the remainder */
static uint32_t big_divsmall(struct big *b, uint32_t k)
{
	uint64_t rem = 0;

	for (uint32_t i = b->b_n; i-- > 0;) {
		uint64_t v = rem << 32 | b->b_limb[i];
		b->b_limb[i] = (uint32_t)(v / k);
		rem = v % k;
	}
	big_trim(b);
	return (uint32_t)rem;
}

/* The bits of b at and above bit `bits`, cleared from b and returned (< 2^32). */
static uint32_t big_take_high(struct big *b, uint32_t bits)
{
	uint32_t w = bits / 32, s = bits % 32;
	uint64_t hi = 0;

	if (w < b->b_n)
		hi = b->b_limb[w] >> s;
	if (w + 1 < b->b_n && s != 0)
		hi |= (uint64_t)b->b_limb[w + 1] << (32 - s);
	for (uint32_t i = w + (s ? 1 : 0); i < b->b_n; i++)
		b->b_limb[i] = 0;
	if (w < b->b_n && s != 0)
		b->b_limb[w] &= (1u << s) - 1;
	big_trim(b);
	return (uint32_t)hi;
}

/* ---- digits ---- */

/* Integer digits of m * 2^e (e may be negative), most significant first. */
static void digits_init(struct digits *d, const uint64_t m[2], int32_t e, struct big *tmp)
{
	char *rev = d->d_rev;
	uint32_t nrev = 0;

	d->d_len = d->d_nint = 0;
	d->d_fbits = e < 0 ? (uint32_t)-e : 0;
	if (e >= 0) {
		big_set_shifted(tmp, m, (uint32_t)e);
		d->d_frac.b_n = 0;
	} else {
		big_set_shifted(&d->d_frac, m, 0);
		big_set_shifted(tmp, m, 0);
		big_shift_right(tmp, (uint32_t)-e);             /* the integer part */
		big_keep_low(&d->d_frac, (uint32_t)-e);         /* the fraction */
	}
	while (tmp->b_n > 0 && nrev + 9 <= sizeof(d->d_rev)) {
		uint32_t chunk = big_divsmall(tmp, 1000000000u);
		for (int i = 0; i < 9; i++, chunk /= 10)
			rev[nrev++] = (char)('0' + chunk % 10);
	}
	while (nrev > 0 && rev[nrev - 1] == '0')
		nrev--;
	while (nrev > 0)
		d->d_dg[d->d_len++] = rev[--nrev];
	d->d_nint = d->d_len;
}

/* Make sure at least n digits exist (fraction digits are made on demand). */
static void digits_need(struct digits *d, uint32_t n)
{
	while (d->d_len < n && d->d_len < DIGITS_MAX) {
		big_muladd(&d->d_frac, 10, 0);
		d->d_dg[d->d_len++] = (char)('0' + big_take_high(&d->d_frac, d->d_fbits));
	}
}

/*
 * Round the digit stream to its first `keep` digits (to nearest, ties to
 * even).  Returns true if that carried out of the first digit (the stream
 * is then "1" followed by zeros, one digit longer).
 */
static bool digits_round(struct digits *d, uint32_t keep)
{
	digits_need(d, keep + 1);
	char next = keep < d->d_len ? d->d_dg[keep] : '0';
	bool sticky = d->d_frac.b_n != 0;

	for (uint32_t i = keep + 1; i < d->d_len && !sticky; i++)
		sticky = d->d_dg[i] != '0';
	bool up = next > '5' || (next == '5' && (sticky || (keep > 0 &&
	          (d->d_dg[keep - 1] - '0') % 2 == 1)));
	d->d_len = keep;
	if (!up)
		return false;
	for (uint32_t i = keep; i-- > 0;) {
		if (d->d_dg[i] != '9') {
			d->d_dg[i]++;
			return false;
		}
		d->d_dg[i] = '0';
	}
	memmove(d->d_dg + 1, d->d_dg, keep);
	d->d_dg[0] = '1';
	d->d_len = keep + 1;
	return true;
}

/* Index of the first non-zero digit (generating fraction digits), or -1. */
static int32_t digits_first(struct digits *d)
{
	for (uint32_t i = 0; i < DIGITS_MAX; i++) {
		digits_need(d, i + 1);
		if (i >= d->d_len)
			return -1;
		if (d->d_dg[i] != '0')
			return (int32_t)i;
	}
	return -1;
}

/* ---- text ---- */

struct out {
	char *o_buf;
	size_t o_len, o_size;
};

static void out_ch(struct out *o, char c)
{
	if (o->o_len + 1 < o->o_size)
		o->o_buf[o->o_len++] = c;
	o->o_buf[o->o_len < o->o_size ? o->o_len : o->o_size - 1] = 0;
}

static void out_str(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out_ch(o, s[i]);
}

/* %f body: the digits of d with prec fraction digits (d rounded already). */
static void body_f(struct out *o, const struct digits *d, uint32_t nint, int prec, bool alt)
{
	if (nint == 0)
		out_ch(o, '0');
	out_str(o, d->d_dg, nint);
	if (prec > 0 || alt)
		out_ch(o, '.');
	out_str(o, d->d_dg + nint, (size_t)prec);
}

static void body_e(struct out *o, const char *dg, int prec, bool alt, int32_t x, char e)
{
	out_ch(o, dg[0]);
	if (prec > 0 || alt)
		out_ch(o, '.');
	out_str(o, dg + 1, (size_t)prec);
	out_ch(o, e);
	out_ch(o, x < 0 ? '-' : '+');
	uint32_t ax = (uint32_t)(x < 0 ? -x : x);
	char t[8];
	int n = 0;
	do {
		t[n++] = (char)('0' + ax % 10);
		ax /= 10;
	} while (ax != 0);
	if (n < 2)
		t[n++] = '0';
	while (n > 0)
		out_ch(o, t[--n]);
}

/* %g: drop trailing zeros of the fraction (and a bare point). */
static void strip_zeros(struct out *o, size_t from)
{
	char *dot = NULL;
	size_t end = o->o_len, epos = o->o_len;

	for (size_t i = from; i < o->o_len; i++) {
		if (o->o_buf[i] == '.')
			dot = o->o_buf + i;
		if (o->o_buf[i] == 'e' || o->o_buf[i] == 'E') {
			epos = i;
			break;
		}
	}
	if (dot == NULL)
		return;
	end = epos;
	while (end > (size_t)(dot - o->o_buf) + 1 && o->o_buf[end - 1] == '0')
		end--;
	if (end == (size_t)(dot - o->o_buf) + 1)
		end--;
	memmove(o->o_buf + end, o->o_buf + epos, o->o_len - epos + 1);
	o->o_len -= epos - end;
}

/* The number without sign and padding, for a finite value. */
static void format_finite(struct out *o, struct digits *d, bool zero, const struct fspec *fs)
{
	int prec = fs->fs_prec < 0 ? 6 : fs->fs_prec;
	char conv = fs->fs_conv | 0x20, e = fs->fs_conv == 'E' || fs->fs_conv == 'G' ? 'E' : 'e';

	if (prec > DTC_FLOAT_MAXPREC)
		prec = DTC_FLOAT_MAXPREC;
	if (conv == 'g' && prec == 0)
		prec = 1;
	int32_t first = zero ? -1 : digits_first(d);
	int32_t x = first < 0 ? 0 : (int32_t)d->d_nint - 1 - first;
	if (conv == 'g') {
		if (first >= 0) {
			/* x after rounding to prec digits: only all nines carry */
			digits_need(d, (uint32_t)first + (uint32_t)prec + 1);
			bool all9 = true;
			for (int i = 0; i < prec && all9; i++)
				all9 = d->d_dg[first + i] == '9';
			if (all9 && d->d_dg[first + prec] >= '5')
				x++;                   /* a tie rounds a 9 up too (to even) */
		}
		size_t from = o->o_len;
		struct fspec f2 = *fs;
		if (x < -4 || x >= prec) {
			f2.fs_conv = e == 'E' ? 'E' : 'e';
			f2.fs_prec = prec - 1;
		} else {
			f2.fs_conv = 'f';
			f2.fs_prec = prec - 1 - x;
		}
		format_finite(o, d, zero, &f2);
		if (!fs->fs_alt)
			strip_zeros(o, from);
		return;
	}
	if (conv == 'f') {
		uint32_t nint = d->d_nint;
		if (digits_round(d, nint + (uint32_t)prec))
			nint++;
		body_f(o, d, nint, prec, fs->fs_alt);
		return;
	}
	char dg[DTC_FLOAT_MAXPREC + 2];
	memset(dg, '0', sizeof(dg));
	if (first >= 0) {                           /* drop the leading zeros, round */
		memmove(d->d_dg, d->d_dg + first, d->d_len - (uint32_t)first);
		d->d_len -= (uint32_t)first;
		if (digits_round(d, (uint32_t)prec + 1))
			x++;
		memcpy(dg, d->d_dg, (size_t)prec + 1);
	}
	body_e(o, dg, prec, fs->fs_alt, x, e);
}

static void fspec_parse(const char *spec, struct fspec *fs)
{
	const char *p = spec + (*spec == '%');

	*fs = (struct fspec){ .fs_width = -1, .fs_prec = -1 };
	for (; *p && strchr("-+ #0", *p); p++) {
		fs->fs_left |= *p == '-';
		fs->fs_plus |= *p == '+';
		fs->fs_space |= *p == ' ';
		fs->fs_alt |= *p == '#';
		fs->fs_zero |= *p == '0';
	}
	for (; *p >= '0' && *p <= '9'; p++)
		fs->fs_width = (fs->fs_width < 0 ? 0 : fs->fs_width * 10) + (*p - '0');
	if (*p == '.') {
		fs->fs_prec = 0;
		for (p++; *p >= '0' && *p <= '9'; p++)
			fs->fs_prec = fs->fs_prec * 10 + (*p - '0');
	}
	while (*p == 'l' || *p == 'L' || *p == 'h')
		p++;
	fs->fs_conv = *p ? *p : 'f';
}

/* The two 64-bit halves of a 16-byte value in the machine's byte order: hi, then lo. */
static void halves(const uint8_t *b, uint64_t *hi, uint64_t *lo)
{
	const uint16_t one = 1;
	bool little = *(const uint8_t *)&one == 1;

	memcpy(little ? lo : hi, b, 8);
	memcpy(little ? hi : lo, b + 8, 8);
}

/*
 * Sign and magnitude m * 2^e of the value (m[0] the mantissa's low 64
 * bits, m[1] its high ones), or inf/nan: returns 0 finite, 1 inf, 2 nan.
 * ldfmt is the format of a 16-byte value (ARCH_LDOUBLE_*).
 */
static int float_decode(const uint8_t *b, uint32_t size, int ldfmt, bool *neg, uint64_t m[2],
                        int32_t *e)
{
	uint64_t bits = 0;

	m[0] = m[1] = 0;
	if (size == 4) {
		uint32_t v;
		memcpy(&v, b, 4);
		uint32_t ex = (v >> 23) & 0xff, fr = v & 0x7fffff;
		*neg = v >> 31;
		if (ex == 0xff)
			return fr ? 2 : 1;
		m[0] = ex ? fr | 0x800000u : fr;
		*e = ex ? (int32_t)ex - 150 : -149;
		return 0;
	}
	if (size == 8) {
		memcpy(&bits, b, 8);
		uint64_t ex = (bits >> 52) & 0x7ff, fr = bits & 0xfffffffffffffull;
		*neg = bits >> 63;
		if (ex == 0x7ff)
			return fr ? 2 : 1;
		m[0] = ex ? fr | (1ull << 52) : fr;
		*e = ex ? (int32_t)ex - 1075 : -1074;
		return 0;
	}
	if (ldfmt == ARCH_LDOUBLE_QUAD) {
		uint64_t hi, lo;                          /* sign, 15-bit exponent, 112-bit fraction */
		halves(b, &hi, &lo);
		uint32_t ex = (uint32_t)(hi >> 48) & 0x7fff;
		uint64_t frhi = hi & 0xffffffffffffull;
		*neg = hi >> 63;
		if (ex == 0x7fff)
			return (frhi | lo) ? 2 : 1;
		m[0] = lo;
		m[1] = ex ? frhi | (1ull << 48) : frhi;
		*e = ex ? (int32_t)ex - 16383 - 112 : 1 - 16383 - 112;
		return 0;
	}
	uint16_t se;                                  /* x87 extended: 64-bit mantissa, then sign+exponent */
	memcpy(&bits, b, 8);
	memcpy(&se, b + 8, 2);
	uint32_t ex = se & 0x7fff;
	*neg = se >> 15;
	if (ex == 0x7fff)
		return (bits << 1) ? 2 : 1;
	m[0] = bits;
	*e = ex ? (int32_t)ex - 16383 - 63 : 1 - 16383 - 63;
	return 0;
}

void dtc_float_of_int(uint64_t v, uint32_t len, uint8_t *bytes)
{
	uint32_t w = (uint32_t)v;

	if (len == 4)
		memcpy(bytes, &w, 4);
	else
		memcpy(bytes, &v, 8);
}

size_t dtc_float_format(char *buf, size_t size, const char *spec, const uint8_t *bytes, uint32_t len)
{
	return dtc_float_format_as(buf, size, spec, bytes, len, ARCH_LDOUBLE_FORMAT);
}

size_t dtc_float_format_as(char *buf, size_t size, const char *spec, const uint8_t *bytes,
                           uint32_t len, int ldfmt)
{
	struct out o = { buf, 0, size };
	struct fspec fs;
	struct digits *d = kmalloc(sizeof(*d));
	struct big *tmp = kmalloc(sizeof(*tmp));
	bool neg = false, upper;
	uint64_t m[2] = { 0, 0 };
	int32_t e = 0;
	int kind;

	buf[0] = 0;
	if (d == NULL || tmp == NULL) {
		kfree(d);
		kfree(tmp);
		return 0;
	}
	struct out ob = { d->d_text, 0, sizeof(d->d_text) };
	fspec_parse(spec, &fs);
	upper = fs.fs_conv == 'E' || fs.fs_conv == 'G' || fs.fs_conv == 'F';
	kind = float_decode(bytes, len, ldfmt, &neg, m, &e);
	if (kind != 0) {
		out_str(&ob, kind == 1 ? (upper ? "INF" : "inf") : (upper ? "NAN" : "nan"), 3);
		fs.fs_zero = false;
	} else {
		digits_init(d, m, e, tmp);
		format_finite(&ob, d, m[0] == 0 && m[1] == 0, &fs);
	}
	char sign = neg ? '-' : fs.fs_plus ? '+' : fs.fs_space ? ' ' : 0;
	size_t n = ob.o_len + (sign != 0);
	size_t pad = fs.fs_width > 0 && (size_t)fs.fs_width > n ? (size_t)fs.fs_width - n : 0;
	if (!fs.fs_left && !fs.fs_zero)
		for (size_t i = 0; i < pad; i++)
			out_ch(&o, ' ');
	if (sign)
		out_ch(&o, sign);
	if (!fs.fs_left && fs.fs_zero)
		for (size_t i = 0; i < pad; i++)
			out_ch(&o, '0');
	out_str(&o, d->d_text, ob.o_len);
	if (fs.fs_left)
		for (size_t i = 0; i < pad; i++)
			out_ch(&o, ' ');
	kfree(tmp);
	kfree(d);
	return o.o_len;
}
