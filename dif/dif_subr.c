/*
 * dif/dif_subr.c: the DIF subroutines, one small function each.
 *
 * `call id, %rd` lands in dif_subr_call(), which checks the id and the
 * number of arguments against dif_subr.def and dispatches through
 * dif_subr_fns, a table indexed by id. Arguments come from the tuple stack:
 * a by-ref entry (pushtr) is already a host-readable pointer and size, a
 * by-value entry (pushtv) is an integer (or an address, which the string
 * helper reads through dif_mem.c). Strings are handled as (pointer, length)
 * pairs and never longer than strsize - 1 characters; results that are new
 * strings are built in scratch and NUL-terminated. A subroutine returns 0
 * or a fault code recorded by dif_fault().
 *
 * Semantics follow DTrace's where DTrace documents them; the choices made
 * where it does not (negative substr arguments, lltostr bases) are in
 * docs/dif.md. Context: probe context; no locks, no globals.
 *
 * Tests: tests/dif/subr_*.dift; tests/d/strings, tests/d/subr
 */
#include "dif/dif_impl.h"

typedef int dif_subr_fn(struct dif_run *r, const dif_key_t *a, uint32_t n,
                        uint64_t *ret);

/* ---- helpers ------------------------------------------------------------ */

/* Argument a as a string (s, len). */
int dif_arg_str(struct dif_run *r, const dif_key_t *a, const char **s,
                       size_t *len)
{
	size_t max = dif_strsize(r) - 1;

	if (a->dk_size == 0)
		return dif_string(r, a->dk_value, 0, DIF_SPACE_KERNEL, s, len);
	*s = (const char *)(uintptr_t)a->dk_value;
	*len = dif_nlen(*s, a->dk_size < max ? a->dk_size : max);
	return 0;
}

/* A new string of len (< strsize) characters in scratch; *ret is its address. */
static int dif_new_str(struct dif_run *r, size_t len, char **p, uint64_t *ret)
{
	uint8_t *q;
	int f;

	if ((f = dif_scratch_alloc(r, len + 1, &q)) != 0)
		return f;
	*p = (char *)q;
	*ret = dif_addr(q);
	return 0;
}

/* A new string holding s, cut to strsize - 1 characters. */
int dif_ret_copy(struct dif_run *r, const char *s, size_t len,
                        uint64_t *ret)
{
	char *p;
	int f;

	if (len > dif_strsize(r) - 1)
		len = dif_strsize(r) - 1;
	if ((f = dif_new_str(r, len, &p, ret)) == 0)
		__builtin_memcpy(p, s, len);
	return f;
}

static bool dif_match(const char *s, const char *t, size_t n)
{
	return __builtin_memcmp(s, t, n) == 0;
}

static bool dif_inset(char c, const char *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == c)
			return true;
	return false;
}

/* ---- strings ------------------------------------------------------------ */

static int dif_subr_strlen(struct dif_run *r, const dif_key_t *a, uint32_t n,
                           uint64_t *ret)
{
	const char *s;
	size_t len;
	int f = dif_arg_str(r, &a[0], &s, &len);

	(void)n;
	*ret = len;
	return f;
}

static int dif_subr_strjoin(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret)
{
	const char *s, *t;
	size_t ls, lt, max = dif_strsize(r) - 1;
	char *p;
	int f;

	(void)n;
	if ((f = dif_arg_str(r, &a[0], &s, &ls)) != 0 ||
	    (f = dif_arg_str(r, &a[1], &t, &lt)) != 0)
		return f;
	if (ls + lt > max)                      /* longer than strsize: DTrace faults */
		return dif_fault(r, DIF_FAULT_NOSCRATCH, 0);
	if ((f = dif_new_str(r, ls + lt, &p, ret)) != 0)
		return f;
	__builtin_memcpy(p, s, ls);
	__builtin_memcpy(p + ls, t, lt);
	return 0;
}

/* substr(s, i [, l]): i < 0 counts from the end; l < 0 stops -l from the end. */
static int dif_subr_substr(struct dif_run *r, const dif_key_t *a, uint32_t n,
                           uint64_t *ret)
{
	const char *s;
	size_t len;
	int64_t i, l, end;
	int f;

	if ((f = dif_arg_str(r, &a[0], &s, &len)) != 0)
		return f;
	i = (int64_t)a[1].dk_value;
	l = n > 2 ? (int64_t)a[2].dk_value : (int64_t)len;
	if (i < 0 && (i += (int64_t)len) < 0) {
		if (n > 2 && l >= 0 && (l += i) < 0)
			l = 0;                      /* wholly before the start: "" */
		i = 0;
	}
	if (i > (int64_t)len)
		i = (int64_t)len;
	end = l < 0 ? (int64_t)len + l : (l > (int64_t)len - i ? (int64_t)len : i + l);
	return dif_ret_copy(r, s + i, end > i ? (size_t)(end - i) : 0, ret);
}

static int64_t dif_find(const char *s, size_t ls, const char *t, size_t lt,
                        int64_t from, bool reverse)
{
	int64_t last = (int64_t)ls - (int64_t)lt;

	if (reverse) {
		if (from < 0)
			from = 0;                   /* as DTrace: rindex("abc", "", -1) is 0 */
		for (int64_t i = from < last ? from : last; i >= 0; i--)
			if (dif_match(s + i, t, lt))
				return i;
		return -1;
	}
	if (from > (int64_t)ls)
		from = (int64_t)ls;                 /* as DTrace: index("abc", "", 10) is 3 */
	for (int64_t i = from < 0 ? 0 : from; i <= last; i++)
		if (dif_match(s + i, t, lt))
			return i;
	return -1;
}

static int dif_index_common(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret, bool reverse)
{
	const char *s, *t;
	size_t ls, lt;
	int64_t from;
	int f;

	if ((f = dif_arg_str(r, &a[0], &s, &ls)) != 0 ||
	    (f = dif_arg_str(r, &a[1], &t, &lt)) != 0)
		return f;
	from = n > 2 ? (int64_t)a[2].dk_value : (reverse ? (int64_t)ls : 0);
	*ret = (uint64_t)dif_find(s, ls, t, lt, from, reverse);
	return 0;
}

static int dif_subr_index(struct dif_run *r, const dif_key_t *a, uint32_t n,
                          uint64_t *ret)
{
	return dif_index_common(r, a, n, ret, false);
}

static int dif_subr_rindex(struct dif_run *r, const dif_key_t *a, uint32_t n,
                           uint64_t *ret)
{
	return dif_index_common(r, a, n, ret, true);
}

/* strchr, strrchr, strstr return an address inside their first argument. */
static int dif_strpos(struct dif_run *r, const dif_key_t *a, const char *t,
                      size_t lt, bool reverse, uint64_t *ret)
{
	const char *s;
	size_t ls;
	int64_t i;
	int f;

	if ((f = dif_arg_str(r, &a[0], &s, &ls)) != 0)
		return f;
	if (lt == 1 && t[0] == '\0') {           /* strchr(s, 0): the NUL */
		*ret = dif_addr(s + ls);
		return 0;
	}
	i = dif_find(s, ls, t, lt, reverse ? (int64_t)ls : 0, reverse);
	*ret = i < 0 ? 0 : dif_addr(s + i);
	return 0;
}

static int dif_subr_strchr(struct dif_run *r, const dif_key_t *a, uint32_t n,
                           uint64_t *ret)
{
	char c = (char)a[1].dk_value;

	(void)n;
	return dif_strpos(r, a, &c, 1, false, ret);
}

static int dif_subr_strrchr(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret)
{
	char c = (char)a[1].dk_value;

	(void)n;
	return dif_strpos(r, a, &c, 1, true, ret);
}

static int dif_subr_strstr(struct dif_run *r, const dif_key_t *a, uint32_t n,
                           uint64_t *ret)
{
	const char *t;
	size_t lt;
	int f;

	(void)n;
	if ((f = dif_arg_str(r, &a[1], &t, &lt)) != 0)
		return f;
	return dif_strpos(r, a, t, lt, false, ret);
}

/* strtok(s, delims); s == NULL continues after the previous token. */
static int dif_subr_strtok(struct dif_run *r, const dif_key_t *a, uint32_t n,
                           uint64_t *ret)
{
	dif_key_t from = a[0];
	const char *s, *d;
	size_t ls, ld, i = 0, j;
	int f;

	(void)n;
	if (from.dk_value == 0)
		from = (dif_key_t){ r->st->ds_strtok, 0 };
	*ret = 0;
	if (from.dk_value == 0)
		return 0;
	if ((f = dif_arg_str(r, &from, &s, &ls)) != 0 ||
	    (f = dif_arg_str(r, &a[1], &d, &ld)) != 0)
		return f;
	while (i < ls && dif_inset(s[i], d, ld))
		i++;
	r->st->ds_strtok = 0;
	if (i == ls)
		return 0;
	for (j = i; j < ls && !dif_inset(s[j], d, ld); j++)
		;
	r->st->ds_strtok = j < ls ? dif_addr(s + j + 1) : 0;
	return dif_ret_copy(r, s + i, j - i, ret);
}

/* lltostr(v [, base]): base 10 is signed, other bases (2..36) unsigned. */
static int dif_subr_lltostr(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret)
{
	uint64_t base = n > 1 ? a[1].dk_value : 10, v = a[0].dk_value;
	bool neg = base == 10 && (int64_t)v < 0;
	char buf[66], *p = buf + sizeof(buf);

	if (base < 2 || base > 36)
		return dif_fault(r, DIF_FAULT_ILLOP, base);
	if (neg)
		v = 0 - v;
	do {
		*--p = "0123456789abcdefghijklmnopqrstuvwxyz"[v % base];
		v /= base;
	} while (v != 0);
	if (neg)
		*--p = '-';
	return dif_ret_copy(r, p, (size_t)(buf + sizeof(buf) - p), ret);
}

static int dif_case(struct dif_run *r, const dif_key_t *a, uint64_t *ret,
                    char lo, char hi)
{
	const char *s;
	size_t len;
	char *p;
	int f;

	if ((f = dif_arg_str(r, &a[0], &s, &len)) != 0 ||
	    (f = dif_new_str(r, len, &p, ret)) != 0)
		return f;
	for (size_t i = 0; i < len; i++)
		p[i] = s[i] >= lo && s[i] <= hi ? (char)(s[i] ^ 0x20) : s[i];
	return 0;
}

static int dif_subr_toupper(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret)
{
	(void)n;
	return dif_case(r, a, ret, 'a', 'z');
}

static int dif_subr_tolower(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret)
{
	(void)n;
	return dif_case(r, a, ret, 'A', 'Z');
}

/*
 * Split a path like basename(1)/dirname(1): [*b, *be) is the last
 * component, [0, *de) the directory part ("" means ".", "/" for root).
 */
static void dif_path_split(const char *s, size_t len, size_t *b, size_t *be,
                           size_t *de)
{
	size_t e = len;

	while (e > 1 && s[e - 1] == '/')
		e--;                              /* trailing slashes */
	*be = e;
	*b = e;
	while (*b > 0 && s[*b - 1] != '/')
		(*b)--;
	*de = *b;
	while (*de > 1 && s[*de - 1] == '/')
		(*de)--;
}

static int dif_subr_basename(struct dif_run *r, const dif_key_t *a, uint32_t n,
                             uint64_t *ret)
{
	const char *s;
	size_t len, b, be, de;
	int f;

	(void)n;
	if ((f = dif_arg_str(r, &a[0], &s, &len)) != 0)
		return f;
	if (len == 0)
		return dif_ret_copy(r, ".", 1, ret);
	dif_path_split(s, len, &b, &be, &de);
	if (b == be)                              /* only slashes */
		return dif_ret_copy(r, "/", 1, ret);
	return dif_ret_copy(r, s + b, be - b, ret);
}

static int dif_subr_dirname(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret)
{
	const char *s;
	size_t len, b, be, de;
	int f;

	(void)n;
	if ((f = dif_arg_str(r, &a[0], &s, &len)) != 0)
		return f;
	dif_path_split(s, len, &b, &be, &de);
	if (len > 0 && s[0] == '/' && (de == 0 || b == be))
		return dif_ret_copy(r, "/", 1, ret);
	if (de == 0)
		return dif_ret_copy(r, ".", 1, ret);
	return dif_ret_copy(r, s, de, ret);
}

static int dif_subr_strtoll(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret)
{
	uint64_t base = n > 1 ? a[1].dk_value : 10, v = 0;
	const char *s;
	size_t len, i = 0;
	bool neg = false;
	int f, d;

	if (base < 2 || base > 36)
		return dif_fault(r, DIF_FAULT_ILLOP, base);
	if ((f = dif_arg_str(r, &a[0], &s, &len)) != 0)
		return f;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (base == 16 && i + 1 < len && s[i] == '0' && (s[i + 1] | 0x20) == 'x')
		i += 2;
	for (; i < len; i++, v = v * base + (uint64_t)d) {
		char c = s[i];
		d = c >= '0' && c <= '9' ? c - '0' :
		    (c | 0x20) >= 'a' && (c | 0x20) <= 'z' ? (c | 0x20) - 'a' + 10 : 99;
		if (d >= (int)base)
			break;
	}
	*ret = neg ? 0 - v : v;
	return 0;
}

static int dif_subr_strncmp(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret)
{
	const char *s, *t;
	size_t ls, lt, i;
	int f;

	(void)n;
	if ((f = dif_arg_str(r, &a[0], &s, &ls)) != 0 ||
	    (f = dif_arg_str(r, &a[1], &t, &lt)) != 0)
		return f;
	for (i = 0; i < a[2].dk_value && i <= ls && i <= lt; i++) {
		unsigned char cs = i < ls ? (unsigned char)s[i] : 0;
		unsigned char ct = i < lt ? (unsigned char)t[i] : 0;
		if (cs != ct || cs == 0) {
			*ret = cs == ct ? 0 : (cs < ct ? (uint64_t)-1 : 1);
			return 0;
		}
	}
	*ret = 0;
	return 0;
}

/* ---- memory ------------------------------------------------------------- */

static int dif_subr_bcopy(struct dif_run *r, const dif_key_t *a, uint32_t n,
                          uint64_t *ret)
{
	(void)n;
	*ret = 0;
	return dif_scratch_copy(r, a[1].dk_value, a[0].dk_value, a[2].dk_value,
	                        DIF_SPACE_KERNEL);
}

static int dif_subr_alloca(struct dif_run *r, const dif_key_t *a, uint32_t n,
                           uint64_t *ret)
{
	uint8_t *p;
	int f = dif_scratch_alloc(r, a[0].dk_value, &p);

	(void)n;
	if (f == 0)
		*ret = dif_addr(p);
	return f;
}

static int dif_subr_copyin(struct dif_run *r, const dif_key_t *a, uint32_t n,
                           uint64_t *ret)
{
	uint8_t *p;
	int f;

	(void)n;
	if ((f = dif_scratch_alloc(r, a[1].dk_value, &p)) != 0)
		return f;
	*ret = dif_addr(p);
	return dif_copy_in(r, p, a[0].dk_value, a[1].dk_value, DIF_SPACE_USER);
}

static int dif_subr_copyinstr(struct dif_run *r, const dif_key_t *a,
                              uint32_t n, uint64_t *ret)
{
	uint64_t bound = n > 1 ? a[1].dk_value + 1 : 0;
	const char *s;
	size_t len;
	int f;

	if ((f = dif_string(r, a[0].dk_value, bound, DIF_SPACE_USER, &s, &len)) != 0)
		return f;
	*ret = dif_addr(s);
	return 0;
}

static int dif_subr_copyinto(struct dif_run *r, const dif_key_t *a, uint32_t n,
                             uint64_t *ret)
{
	(void)n;
	*ret = 0;
	return dif_scratch_copy(r, a[2].dk_value, a[0].dk_value, a[1].dk_value,
	                        DIF_SPACE_USER);
}

static int dif_ustore(struct dif_run *r, const uint8_t *src, uint64_t uaddr,
                      uint64_t n)
{
	int f;

	if (!(r->st->ds_flags & DIF_RUN_DESTRUCTIVE) || r->env->de_ustore == NULL)
		return dif_fault(r, DIF_FAULT_UPRIV, uaddr);
	f = r->env->de_ustore(r->env->de_ctx, uaddr, src, n);
	return f ? dif_fault(r, (unsigned)f, uaddr) : 0;
}

static int dif_subr_copyout(struct dif_run *r, const dif_key_t *a, uint32_t n,
                            uint64_t *ret)
{
	const uint8_t *src;
	int f;

	(void)n;
	*ret = 0;
	if ((f = dif_readable(r, a[0].dk_value, a[2].dk_value, &src)) != 0)
		return f;
	return dif_ustore(r, src, a[1].dk_value, a[2].dk_value);
}

static int dif_subr_copyoutstr(struct dif_run *r, const dif_key_t *a,
                               uint32_t n, uint64_t *ret)
{
	const char *s;
	size_t len;
	int f;

	(void)n;
	*ret = 0;
	if ((f = dif_arg_str(r, &a[0], &s, &len)) != 0)
		return f;
	len = len + 1 < a[2].dk_value ? len + 1 : a[2].dk_value;
	return dif_ustore(r, (const uint8_t *)s, a[1].dk_value, len);
}

/* ---- numbers and hooks -------------------------------------------------- */

/* xorshift64*: good enough for sampling, cheap, per-CPU state. */
static int dif_subr_rand(struct dif_run *r, const dif_key_t *a, uint32_t n,
                         uint64_t *ret)
{
	uint64_t x = r->st->ds_rand ? r->st->ds_rand : 0x9e3779b97f4a7c15ull;

	(void)a; (void)n;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->st->ds_rand = x;
	*ret = (x * 0x2545f4914f6cdd1dull) >> 33;
	return 0;
}

static int dif_subr_speculation(struct dif_run *r, const dif_key_t *a,
                                uint32_t n, uint64_t *ret)
{
	int f;

	(void)a; (void)n;
	*ret = 0;
	if (r->env->de_speculation == NULL)
		return 0;
	f = r->env->de_speculation(r->env->de_ctx, ret);
	return f ? dif_fault(r, (unsigned)f, 0) : 0;
}

static uint64_t dif_bswap(uint64_t v, unsigned bytes)
{
	uint64_t out = 0;

	for (unsigned i = 0; i < bytes; i++, v >>= 8)
		out = (out << 8) | (v & 0xff);
	return out;
}

/* Network byte order is big-endian: swap on little-endian machines. */
static int dif_net(const dif_key_t *a, uint64_t *ret, unsigned bytes)
{
	uint64_t mask = bytes == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * bytes)) - 1;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	*ret = dif_bswap(a[0].dk_value & mask, bytes);
#else
	*ret = a[0].dk_value & mask;
	(void)dif_bswap;
#endif
	return 0;
}

#define DIF_NET(name, bytes) \
	static int dif_subr_##name(struct dif_run *r, const dif_key_t *a, \
	                           uint32_t n, uint64_t *ret) \
	{ (void)r; (void)n; return dif_net(a, ret, bytes); }
DIF_NET(htons, 2)
DIF_NET(htonl, 4)
DIF_NET(htonll, 8)
DIF_NET(ntohs, 2)
DIF_NET(ntohl, 4)
DIF_NET(ntohll, 8)

/* ---- kernel objects: locks and processes --------------------------------- */

/* Ask the environment about the lock at a[0]; without de_lock, 0. */
static int dif_lock(struct dif_run *r, const dif_key_t *a, unsigned query,
                    uint64_t *ret)
{
	int f;

	*ret = 0;
	if (r->env->de_lock == NULL)
		return 0;
	f = r->env->de_lock(r->env->de_ctx, a[0].dk_value, query, ret);
	return f ? dif_fault(r, (unsigned)f, a[0].dk_value) : 0;
}

#define DIF_LOCK_SUBR(name, query) \
	static int dif_subr_##name(struct dif_run *r, const dif_key_t *a, \
	                           uint32_t n, uint64_t *ret) \
	{ (void)n; return dif_lock(r, a, query, ret); }
DIF_LOCK_SUBR(mutex_owned, DIF_LOCK_OWNED)
DIF_LOCK_SUBR(mutex_owner, DIF_LOCK_OWNER)
DIF_LOCK_SUBR(mutex_type_adaptive, DIF_LOCK_ADAPTIVE)
DIF_LOCK_SUBR(mutex_type_spin, DIF_LOCK_SPIN)
DIF_LOCK_SUBR(rw_read_held, DIF_LOCK_RW_READ)
DIF_LOCK_SUBR(rw_write_held, DIF_LOCK_RW_WRITE)
DIF_LOCK_SUBR(rw_iswriter, DIF_LOCK_RW_ISWRITER)

/*
 * progenyof(pid): is the current process pid or a descendant of it?  A
 * process's ancestry is what the pid and ppid built-ins tell: every Sonde
 * thread belongs to the kernel's process 0 (pid and ppid 0, like illumos's
 * p0), so progenyof(0) is 1 and any other pid 0.
 */
static int dif_subr_progenyof(struct dif_run *r, const dif_key_t *a,
                              uint32_t n, uint64_t *ret)
{
	uint64_t pid = 0, ppid = 0;
	int32_t want = (int32_t)a[0].dk_value;
	int f;

	(void)n;
	if ((f = r->env->de_builtin(r->env->de_ctx, DIF_VAR_PID, 0, &pid)) != 0 ||
	    (f = r->env->de_builtin(r->env->de_ctx, DIF_VAR_PPID, 0, &ppid)) != 0)
		return dif_fault(r, (unsigned)f, 0);
	*ret = want == (int32_t)pid || want == (int32_t)ppid;
	return 0;
}

/* ---- dispatch ----------------------------------------------------------- */

static dif_subr_fn *const dif_subr_fns[DIF_SUBR_MAX] = {
#define DIF_SUBR(NAME, name, id, mn, mx, ret, flags, proto) \
	[id] = dif_subr_##name,
#include "dif/dif_subr.def"
#undef DIF_SUBR
};

int dif_subr_call(struct dif_run *r, unsigned id, const dif_key_t *args,
                  uint32_t nargs, uint64_t *ret)
{
	const dif_subrinfo_t *si = dif_subrinfo(id);

	if (si == NULL || nargs < si->si_minargs || nargs > si->si_maxargs)
		return dif_fault(r, DIF_FAULT_ILLOP, id);
	return dif_subr_fns[id](r, args, nargs, ret);
}
