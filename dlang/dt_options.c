/*
 * dt_options.c - DTrace's options: their names, kinds and value syntax.
 *
 * One table of every option DTrace's consumer knows ("Options and
 * Tunables" in the Dynamic Tracing Guide, and the compiler's own), shared
 * by `#pragma D option` (checked here, at compile time) and by the dtrace
 * command's -x and flags (console/dtrace/dtc_opt.c, which gives each value
 * its meaning).  This file only parses: it says whether a name exists and
 * what number a value stands for, never what the option does.
 *
 * Value syntax, as libdtrace reads it:
 *   size    an integer (decimal, 0x hex or 0 octal) with an optional k, m,
 *           g or t suffix (either case): 4m is 4 MiB;
 *   time    an integer with an optional unit: ns nsec us usec ms msec s
 *           sec m min h hour d day, or hz (a rate: 10hz is 100ms); no unit
 *           means nanoseconds;
 *   flag    runtime booleans (quiet, flowindent, ...): no value sets them,
 *           yes/no, enable(d)/disable(d), true/false, on/off, set/unset
 *           set and unset them, a number sets them;
 *   cflag   compiler flags (defaultargs, zdefs, ...): no value allowed;
 *   scalar  an integer, no suffix;
 *   word    one of a few words (bufpolicy: switch, fill or ring);
 *   text    anything (paths and names of options Sonde accepts but has
 *           no use for).
 *
 * Pure and freestanding: no allocation, no kernel calls.
 *
 * Tests: tests/unit/dlang_options_test.c; tests/d/options,
 *        tests/d/err.D_PRAGMA_*.d
 */
#include "dlang/dt.h"

#define K(x) DT_OPTK_##x

static const char *const w_bufpolicy[] = { "switch", "fill", "ring", NULL };
static const char *const w_bufresize[] = { "auto", "manual", NULL };
static const char *const w_stdc[] = { "a", "c", "s", "t", NULL };
static const char *const w_linkmode[] = { "kernel", "dynamic", "static", NULL };
static const char *const w_linktype[] = { "elf", "dof", NULL };
static const char *const w_oformat[] = { "none", "text", "json", NULL };
static const char *const w_evaltime[] = { "exec", "preinit", "postinit", "main", NULL };

static const struct dt_optdef {
	const char *od_name;
	dt_optkind od_kind;
	const char *const *od_words;	/* DT_OPTK_WORD only */
} dt_options[] = {
	/* runtime options (the Guide's table) */
	{ "aggpercpu", K(FLAG), NULL },    { "aggrate", K(TIME), NULL },
	{ "aggsize", K(SIZE), NULL },      { "aggsortkey", K(FLAG), NULL },
	{ "aggsortkeypos", K(SCALAR), NULL }, { "aggsortpos", K(SCALAR), NULL },
	{ "aggsortrev", K(FLAG), NULL },   { "aggzoom", K(FLAG), NULL },
	/* not aggpack or agghist: their output is not known well enough to
	 * print it, and an option accepted but ignored would be a lie */
	{ "bufpolicy", K(WORD), w_bufpolicy }, { "bufresize", K(WORD), w_bufresize },
	{ "bufsize", K(SIZE), NULL },      { "cleanrate", K(TIME), NULL },
	{ "cpu", K(SCALAR), NULL },        { "destructive", K(FLAG), NULL },
	{ "dynvarsize", K(SIZE), NULL },   { "flowindent", K(FLAG), NULL },
	{ "grabanon", K(FLAG), NULL },     { "jstackframes", K(SCALAR), NULL },
	{ "jstackstrsize", K(SIZE), NULL }, { "maxframes", K(SCALAR), NULL },
	{ "nspec", K(SCALAR), NULL },      { "quiet", K(FLAG), NULL },
	{ "rawbytes", K(FLAG), NULL },     { "specsize", K(SIZE), NULL },
	{ "stackframes", K(SCALAR), NULL }, { "stackindent", K(SCALAR), NULL },
	{ "statusrate", K(TIME), NULL },   { "strsize", K(SIZE), NULL },
	{ "switchrate", K(TIME), NULL },   { "temporal", K(FLAG), NULL },
	{ "ustackframes", K(SCALAR), NULL },
	{ "oformat", K(WORD), w_oformat },  /* FreeBSD's structured output (json only here) */
	/* the consumer's own */
	{ "droptags", K(CFLAG), NULL },
	{ "jit", K(SCALAR), NULL },		/* Sonde's: 0 keeps DIF on the interpreter */
	/* compiler options */
	{ "amin", K(TEXT), NULL },         { "argref", K(CFLAG), NULL },
	{ "core", K(TEXT), NULL },         { "cpp", K(CFLAG), NULL },
	{ "cpphdrs", K(CFLAG), NULL },     { "cpppath", K(TEXT), NULL },
	{ "ctypes", K(TEXT), NULL },       { "defaultargs", K(CFLAG), NULL },
	{ "define", K(TEXT), NULL },       { "dtypes", K(TEXT), NULL },
	{ "debug", K(CFLAG), NULL },       { "empty", K(CFLAG), NULL },
	{ "errtags", K(CFLAG), NULL },     { "evaltime", K(WORD), w_evaltime },
	{ "incdir", K(TEXT), NULL },       { "iregs", K(SCALAR), NULL },
	{ "kdefs", K(CFLAG), NULL },       { "knodefs", K(CFLAG), NULL },
	{ "late", K(TEXT), NULL },         { "lazyload", K(CFLAG), NULL },
	{ "ldpath", K(TEXT), NULL },       { "libdir", K(TEXT), NULL },
	{ "linkmode", K(WORD), w_linkmode }, { "linktype", K(WORD), w_linktype },
	{ "nolibs", K(CFLAG), NULL },      { "pgmax", K(SCALAR), NULL },
	{ "pspec", K(CFLAG), NULL },       { "setenv", K(TEXT), NULL },
	{ "stdc", K(WORD), w_stdc },       { "strip", K(CFLAG), NULL },
	{ "syslibdir", K(TEXT), NULL },    { "tree", K(SCALAR), NULL },
	{ "tregs", K(SCALAR), NULL },      { "udefs", K(CFLAG), NULL },
	{ "undef", K(TEXT), NULL },        { "unodefs", K(CFLAG), NULL },
	{ "unsetenv", K(TEXT), NULL },     { "verbose", K(CFLAG), NULL },
	{ "version", K(VERSION), NULL },   { "zdefs", K(CFLAG), NULL },
};

/* D versions the compiler accepts for "version" (major, minor, micro). */
static const uint8_t dt_versions[][3] = {
	{ 1, 0, 0 }, { 1, 1, 0 }, { 1, 2, 0 }, { 1, 2, 1 }, { 1, 2, 2 },
	{ 1, 3, 0 }, { 1, 4, 0 }, { 1, 4, 1 }, { 1, 5, 0 }, { 1, 6, 0 },
	{ 1, 6, 1 }, { 1, 6, 2 }, { 1, 6, 3 }, { 1, 7, 0 }, { 1, 7, 1 },
	{ 1, 8, 0 }, { 1, 8, 1 }, { 1, 9, 0 }, { 1, 9, 1 }, { 1, 10, 0 },
	{ 1, 11, 0 }, { 1, 12, 0 }, { 1, 12, 1 }, { 1, 13, 0 },
};

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static bool streq_nocase(const char *a, const char *b)
{
	while (*a != '\0' && lower(*a) == lower(*b)) {
		a++;
		b++;
	}
	return *a == '\0' && *b == '\0';
}

/*
 * An unsigned integer as strtoull(s, &end, 0) reads it; *end is left at
 * the first character that is not part of it.  False if there are no
 * digits or it overflows.
 */
static bool opt_integer(const char *s, const char **end, uint64_t *v)
{
	unsigned base = 10;
	uint64_t x = 0;
	const char *p = s;

	if (p[0] == '0' && lower(p[1]) == 'x') {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	const char *digits = p;
	for (;; p++) {
		int c = lower(*p);
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
		    c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 99;
		if (d >= base)
			break;
		if (x > (UINT64_MAX - d) / base)
			return false;
		x = x * base + d;
	}
	if (p == digits && base != 8)
		return false;
	*end = p;
	*v = x;
	return true;
}

static bool opt_size(const char *v, uint64_t *out)
{
	const char *end;
	uint64_t x, mul = 1;
	size_t n = dt_strlen(v);

	if (n == 0 || !opt_integer(v, &end, &x))
		return false;
	switch (lower(v[n - 1])) {
	case 't': mul <<= 10; /* FALLTHROUGH */
	case 'g': mul <<= 10; /* FALLTHROUGH */
	case 'm': mul <<= 10; /* FALLTHROUGH */
	case 'k': mul <<= 10; break;
	default: break;
	}
	if (mul > 1 ? end != v + n - 1 : *end != '\0')
		return false;
	if (x > (uint64_t)INT64_MAX / mul)
		return false;
	*out = x * mul;
	return true;
}

static bool opt_time(const char *v, uint64_t *out)
{
	static const struct { const char *u; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 },
		{ "s", 1000000000ULL }, { "sec", 1000000000ULL },
		{ "m", 60000000000ULL }, { "min", 60000000000ULL },
		{ "h", 3600000000000ULL }, { "hour", 3600000000000ULL },
		{ "d", 86400000000000ULL }, { "day", 86400000000000ULL },
		{ "hz", 0 }, { "", 1 },
	};
	const char *end;
	uint64_t x;

	if (!opt_integer(v, &end, &x))
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!streq_nocase(end, units[i].u))
			continue;
		if (units[i].ns == 0) {		/* a rate: per second */
			*out = x == 0 ? 0 : 1000000000ULL / x;
			return true;
		}
		if (x > UINT64_MAX / units[i].ns)
			return false;
		*out = x * units[i].ns;
		return true;
	}
	return false;
}

static bool opt_flag(const char *v, dt_optval *o)
{
	static const char *const words[][2] = {
		{ "yes", "no" }, { "enable", "disable" },
		{ "enabled", "disabled" }, { "true", "false" },
		{ "on", "off" }, { "set", "unset" },
	};
	const char *end;

	o->ov_set = true;
	if (v == NULL)
		return true;
	if (*v == '\0') {
		o->ov_set = false;
		return true;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (streq_nocase(v, words[i][0]))
			return true;
		if (streq_nocase(v, words[i][1])) {
			o->ov_set = false;
			return true;
		}
	}
	return opt_integer(v, &end, &o->ov_num) && *end == '\0';
}

/* "MAJOR.MINOR[.MICRO]" that names a D version the compiler knows. */
static dt_opterr opt_version(const char *v, dt_optval *o)
{
	uint64_t part[3] = { 0, 0, 0 };
	const char *p = v;
	int n = 0;

	while (n < 3) {
		if (!opt_integer(p, &p, &part[n]) || part[n] > 255)
			return DT_OPT_VERSINVAL;
		n++;
		if (*p != '.')
			break;
		p++;
	}
	if (*p != '\0' || n < 2)
		return DT_OPT_VERSINVAL;
	for (size_t i = 0; i < sizeof(dt_versions) / sizeof(dt_versions[0]); i++) {
		if (dt_versions[i][0] == part[0] && dt_versions[i][1] == part[1] &&
		    dt_versions[i][2] == part[2]) {
			o->ov_num = DT_VERSION_NUMBER(part[0], part[1], part[2]);
			return DT_OPT_OK;
		}
	}
	return DT_OPT_VERSUNDEF;
}

static bool opt_word(const char *const *words, const char *v, uint64_t *idx)
{
	for (uint64_t i = 0; v != NULL && words[i] != NULL; i++) {
		if (dt_streq(v, words[i])) {
			*idx = i;
			return true;
		}
	}
	return false;
}

dt_opterr dt_option_parse(const char *name, const char *value, dt_optval *o)
{
	const struct dt_optdef *d = NULL;
	const char *end;

	for (size_t i = 0; i < sizeof(dt_options) / sizeof(dt_options[0]); i++)
		if (dt_streq(name, dt_options[i].od_name))
			d = &dt_options[i];
	if (d == NULL)
		return DT_OPT_BADNAME;
	__builtin_memset(o, 0, sizeof(*o));
	o->ov_name = d->od_name;
	o->ov_kind = d->od_kind;
	o->ov_text = value;
	o->ov_set = true;
	switch (d->od_kind) {
	case DT_OPTK_FLAG:
		return opt_flag(value, o) ? DT_OPT_OK : DT_OPT_BADVAL;
	case DT_OPTK_CFLAG:
		return value == NULL ? DT_OPT_OK : DT_OPT_BADVAL;
	case DT_OPTK_SIZE:
		return (value != NULL && opt_size(value, &o->ov_num) ?
		    DT_OPT_OK : DT_OPT_BADVAL);
	case DT_OPTK_TIME:
		return (value != NULL && opt_time(value, &o->ov_num) ?
		    DT_OPT_OK : DT_OPT_BADVAL);
	case DT_OPTK_SCALAR:
		if (value == NULL)
			return DT_OPT_OK;	/* as libdtrace: the value 0 */
		return (opt_integer(value, &end, &o->ov_num) && *end == '\0' ?
		    DT_OPT_OK : DT_OPT_BADVAL);
	case DT_OPTK_WORD:
		return (opt_word(d->od_words, value, &o->ov_num) ? DT_OPT_OK :
		    DT_OPT_BADVAL);
	case DT_OPTK_VERSION:
		return value == NULL ? DT_OPT_BADVAL : opt_version(value, o);
	case DT_OPTK_TEXT:
		return value == NULL ? DT_OPT_BADVAL : DT_OPT_OK;
	}
	return DT_OPT_BADVAL;
}

const char *dt_option_errmsg(dt_opterr e)
{
	switch (e) {
	case DT_OPT_OK: return ("Success");
	case DT_OPT_BADNAME: return ("Invalid option name");
	case DT_OPT_BADVAL: return ("Invalid value for specified option");
	case DT_OPT_VERSINVAL:
		return "Version is not properly formatted or is too large";
	case DT_OPT_VERSUNDEF:
		return "Requested version is not supported by compiler";
	case DT_OPT_VERSREDUCED:
		return "Requested version conflicts with earlier setting";
	}
	return "Unknown error";
}
