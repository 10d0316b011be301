/*
 * dif/dif_subr_net.c: the subroutines that format what the kernel stores in
 * binary: paths (cleanpath), device numbers (getmajor, getminor) and network
 * and link-layer addresses (inet_ntoa, inet_ntoa6, inet_ntop, link_ntop).
 *
 * Each reads its input through dif_mem.c (so an address may be kernel
 * memory, scratch or the string table, and a bad one is a recorded fault,
 * never a trap), builds the text in a small buffer on the stack, and returns
 * a copy in scratch cut to strsize - 1 characters, as DTrace's string
 * subroutines do.  What the text looks like follows DTrace's documentation:
 *
 *   inet_ntoa(ipaddr_t *)     "192.168.1.20": the four bytes in memory order
 *                             (network byte order), in decimal
 *   inet_ntoa6(in6_addr_t *)  RFC 1884 convention 2: sixteen-bit groups in
 *                             lower-case hex without leading zeros, one run
 *                             of zero groups written "::".  An IPv4-mapped
 *                             (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d)
 *                             address is written as the IPv4 address alone
 *   inet_ntop(af, void *)     AF_INET (2) as inet_ntoa, AF_INET6 (26, the
 *                             illumos value) as inet_ntoa6, except that the
 *                             embedded IPv4 forms keep their "::ffff:" or
 *                             "::" prefix; any other family is an illegal
 *                             operation
 *   link_ntop(type, void *)   ARPHRD_ETHER (1): six bytes, ARPHRD_IB (32):
 *                             twenty, each as two lower-case hex digits,
 *                             separated by ':'; any other type is illegal
 *   getmajor/getminor(dev_t)  Sonde's device numbers use the illumos 64-bit
 *                             layout: major in the high 32 bits, minor in
 *                             the low 32
 *
 * Which zero run "::" replaces is DTrace's choice, not RFC 5952's: a run of
 * one group is compressed too, and runs are compared by a weight that
 * counts two per group, one more when the group after the run has a zero
 * high byte, and one less for a run that ends the address (so a lone
 * trailing zero group is never compressed).  The first run of the greatest
 * weight wins.  docs/dif.md lists these and cleanpath's rules.
 *
 * Context: probe context; bounded loops, no locks, no allocation beyond
 * scratch.
 *
 * Tests: tests/dif/subr_inet_*.dift, subr_link_ntop_*.dift; tests/d/subr
 */
#include "dif/dif_impl.h"

#define DIF_AF_INET       2
#define DIF_AF_INET6      26
#define DIF_ARPHRD_ETHER  1
#define DIF_ARPHRD_IB     32

/* A small text buffer the formatters append to (never overflows). */
struct dif_text {
	char   t_buf[80];
	size_t t_len;
};

static void dif_text_ch(struct dif_text *t, char c)
{
	if (t->t_len < sizeof(t->t_buf))
		t->t_buf[t->t_len++] = c;
}

static void dif_text_dec(struct dif_text *t, unsigned v)
{
	char d[4];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0 && n < 4);
	while (n > 0)
		dif_text_ch(t, d[--n]);
}

/* v in lower-case hex: without leading zeros, or with exactly `digits`. */
static void dif_text_hex(struct dif_text *t, unsigned v, int digits)
{
	bool started = false;

	for (int shift = 12; shift >= 0; shift -= 4) {
		unsigned d = (v >> shift) & 0xf;
		if (digits != 0 && shift >= 4 * digits)
			continue;
		if (d != 0 || started || shift == 0 || digits != 0) {
			dif_text_ch(t, "0123456789abcdef"[d]);
			started = true;
		}
	}
}

static int dif_text_ret(struct dif_run *r, const struct dif_text *t,
                        uint64_t *ret)
{
	return dif_ret_copy(r, t->t_buf, t->t_len, ret);
}

static void dif_text_quad(struct dif_text *t, const uint8_t *b)
{
	for (int i = 0; i < 4; i++) {
		if (i > 0)
			dif_text_ch(t, '.');
		dif_text_dec(t, b[i]);
	}
}

/* ---- IPv4 and IPv6 ------------------------------------------------------ */

static bool dif_zero(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != 0)
			return false;
	return true;
}

static bool dif_v4mapped(const uint8_t *b)
{
	return dif_zero(b, 10) && b[10] == 0xff && b[11] == 0xff;
}

/* ::a.b.c.d, but not :: or ::1 */
static bool dif_v4compat(const uint8_t *b)
{
	return dif_zero(b, 12) && !(dif_zero(b + 12, 3) && b[15] <= 1);
}

/* The zero run "::" replaces: [*start, *end) in groups, start -1 for none. */
static void dif_v6_run(const uint16_t *g, int *start, int *end)
{
	int best = 1;

	*start = *end = -1;
	for (int a = 0; a < 8; a++) {
		int b = a, weight;
		if (g[a] != 0)
			continue;
		while (b < 8 && g[b] == 0)
			b++;
		weight = 2 * (b - a);
		if (b == 8)
			weight -= 1;
		else if ((g[b] >> 8) == 0)
			weight += 1;
		if (weight > best) {
			*start = a;
			*end = b;
			best = 2 * (b - a);
		}
		a = b;
	}
}

static void dif_text_v6(struct dif_text *t, const uint8_t *b, bool ntop)
{
	uint16_t g[8];
	int start, end;

	if (dif_v4mapped(b) || dif_v4compat(b)) {
		if (ntop) {
			dif_text_ch(t, ':');
			dif_text_ch(t, ':');
			if (b[10] == 0xff) {
				dif_text_hex(t, 0xffff, 0);
				dif_text_ch(t, ':');
			}
		}
		dif_text_quad(t, b + 12);
		return;
	}
	for (int i = 0; i < 8; i++)
		g[i] = (uint16_t)(b[2 * i] << 8 | b[2 * i + 1]);
	dif_v6_run(g, &start, &end);
	for (int i = 0; i < 8; i++) {
		if (i == start) {
			dif_text_ch(t, ':');
			dif_text_ch(t, ':');
			i = end - 1;
			continue;
		}
		if (i > 0 && i != end)
			dif_text_ch(t, ':');
		dif_text_hex(t, g[i], 0);
	}
}

static int dif_addr_in(struct dif_run *r, uint64_t addr, uint8_t *b, size_t n)
{
	return dif_copy_in(r, b, addr, n, DIF_SPACE_KERNEL);
}

DIF_SUBR_NET_FN(inet_ntoa)
{
	struct dif_text t = { .t_len = 0 };
	uint8_t b[4];
	int f;

	(void)n;
	if ((f = dif_addr_in(r, a[0].dk_value, b, 4)) != 0)
		return f;
	dif_text_quad(&t, b);
	return dif_text_ret(r, &t, ret);
}

DIF_SUBR_NET_FN(inet_ntoa6)
{
	struct dif_text t = { .t_len = 0 };
	uint8_t b[16];
	int f;

	(void)n;
	if ((f = dif_addr_in(r, a[0].dk_value, b, 16)) != 0)
		return f;
	dif_text_v6(&t, b, false);
	return dif_text_ret(r, &t, ret);
}

DIF_SUBR_NET_FN(inet_ntop)
{
	struct dif_text t = { .t_len = 0 };
	uint8_t b[16];
	int f;

	(void)n;
	if (a[0].dk_value == DIF_AF_INET) {
		if ((f = dif_addr_in(r, a[1].dk_value, b, 4)) != 0)
			return f;
		dif_text_quad(&t, b);
	} else if (a[0].dk_value == DIF_AF_INET6) {
		if ((f = dif_addr_in(r, a[1].dk_value, b, 16)) != 0)
			return f;
		dif_text_v6(&t, b, true);
	} else {
		return dif_fault(r, DIF_FAULT_ILLOP, 0);
	}
	return dif_text_ret(r, &t, ret);
}

DIF_SUBR_NET_FN(link_ntop)
{
	struct dif_text t = { .t_len = 0 };
	uint8_t b[20];
	size_t len;
	int f;

	(void)n;
	if (a[0].dk_value == DIF_ARPHRD_ETHER)
		len = 6;
	else if (a[0].dk_value == DIF_ARPHRD_IB)
		len = 20;
	else
		return dif_fault(r, DIF_FAULT_ILLOP, 0);
	if ((f = dif_addr_in(r, a[1].dk_value, b, len)) != 0)
		return f;
	for (size_t i = 0; i < len; i++) {
		if (i > 0)
			dif_text_ch(&t, ':');
		dif_text_hex(&t, b[i], 2);
	}
	return dif_text_ret(r, &t, ret);
}

/* ---- device numbers ----------------------------------------------------- */

DIF_SUBR_NET_FN(getmajor)
{
	(void)r; (void)n;
	*ret = (a[0].dk_value >> 32) & 0xffffffffu;
	return 0;
}

DIF_SUBR_NET_FN(getminor)
{
	(void)r; (void)n;
	*ret = a[0].dk_value & 0xffffffffu;
	return 0;
}

/* ---- paths -------------------------------------------------------------- */

/*
 * cleanpath: "//" becomes "/", "/./" becomes "/", and "/../" removes the
 * component before it (at the root, or at the start of a relative path,
 * there is none to remove), all without regard to symbolic links.  A
 * trailing "/." or "/.." does the same and leaves the path ending in "/".
 * The result is never longer than the input.
 */
static bool dif_dots(const char *s, size_t len, size_t i, size_t ndots)
{
	for (size_t k = 1; k <= ndots; k++)
		if (i + k >= len || s[i + k] != '.')
			return false;
	return i + ndots + 1 == len || s[i + ndots + 1] == '/';
}

DIF_SUBR_NET_FN(cleanpath)
{
	const char *s;
	char *out;
	size_t len, i = 0, j = 0;
	uint8_t *p;
	int f;

	(void)n;
	if ((f = dif_arg_str(r, &a[0], &s, &len)) != 0 ||
	    (f = dif_scratch_alloc(r, len + 1, &p)) != 0)
		return f;
	out = (char *)p;
	while (i < len) {
		if (s[i] != '/') {
			out[j++] = s[i++];
		} else if (i + 1 < len && s[i + 1] == '/') {
			i++;                            /* "//": keep the last */
		} else if (dif_dots(s, len, i, 1)) {
			i += 2;                         /* "/.": drop */
			if (i == len)
				out[j++] = '/';
		} else if (dif_dots(s, len, i, 2)) {
			while (j > 0 && out[--j] != '/')
				;                       /* "/..": back up a component */
			i += 3;
			if (i >= len)
				out[j++] = '/';
		} else {
			out[j++] = s[i++];
		}
	}
	out[j] = '\0';
	*ret = dif_addr(out);
	return 0;
}
