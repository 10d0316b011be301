/*
 * dlang/dt_proto.c: D's functions as DTrace declares them, for its
 * prototype checks and their messages.
 *
 * DTrace checks every call against the function's prototype before it
 * looks at what the function is: first the arguments are cooked (so an
 * argument's own error comes first), then the count (D_PROTO_LEN), then
 * each argument's type (D_PROTO_ARG); only then the action's own rules
 * (dt_action.c, dt_agg.c).  The prototypes are the ones the Dynamic Tracing
 * Guide gives, written as DTrace's compiler spells the parameter types
 * (its messages print them: "prototype: const char *").  A parameter list
 * is one string:
 *
 *   "@"          one argument of any type
 *   "T"          one argument of C type T (printed in D_PROTO_ARG)
 *   "[T]"        an optional argument (all optional ones come last)
 *   "..."        any number of further arguments (varargs)
 *
 * The count rule and its message follow from the list:
 *   exact        "exit( ) prototype mismatch: 0 args passed, 1 expected"
 *   optional     "substr( ) prototype mismatch: 4 args passed, at least 2
 *                expected" (DTrace says "at least" both ways)
 *   varargs      "printa( ) prototype mismatch: 0 args passed, 1 expected"
 *                (only too few is an error; the action checks the rest)
 *
 * Which types an argument may have stays the letter code of dt_func.c's
 * table (dt_fn_proto_ok); this file only says what DTrace prints.  A
 * function missing here is checked with dt_func.c's own counts.
 *
 * Also here: printa()'s check that the aggregations it joins have the same
 * keys (D_PRINTA_AGGKEY, D_PRINTA_AGGPROTO).  (An action called inside an
 * expression types as its result, void or stack; DTrace reports the call
 * when it generates code for the expression, D_CG_EXPR in dt_cg.c.)
 *
 * Context: the compiler's (no globals, errors unwind).
 *
 * Tests: tests/d/err.D_PROTO_*.d (DTrace's messages)
 */
#include "dlang/dt.h"

typedef struct dt_proto {
	const char *pr_name;
	const char *pr_args;		/* DTrace's parameter list */
} dt_proto;

static const dt_proto dt_protos[] = {
	/* actions */
	{ "trace", "@" },
	{ "printf", "@, ..." },
	{ "printa", "@, ..." },
	{ "exit", "int" },
	{ "stack", "..." },
	{ "ustack", "..." },
	{ "tracemem", "@, size_t, ..." },
	{ "func", "uintptr_t" },
	{ "sym", "uintptr_t" },
	{ "mod", "uintptr_t" },
	{ "ufunc", "uintptr_t" },
	{ "usym", "uintptr_t" },
	{ "uaddr", "uintptr_t" },
	{ "umod", "uintptr_t" },
	{ "speculate", "int" },
	{ "commit", "int" },
	{ "discard", "int" },
	{ "clear", "..." },
	{ "trunc", "..." },
	{ "normalize", "..." },
	{ "denormalize", "..." },
	{ "setopt", "const char *, [const char *]" },
	{ "panic", "" },
	{ "breakpoint", "" },
	{ "stop", "" },
	{ "chill", "int" },
	{ "raise", "int" },
	{ "system", "@, ..." },
	/* aggregating functions */
	{ "count", "" },
	{ "sum", "@" },
	{ "avg", "@" },
	{ "min", "@" },
	{ "max", "@" },
	{ "stddev", "@" },
	{ "quantize", "@, ..." },
	{ "lquantize", "@, int32_t, int32_t, ..." },
	{ "llquantize", "@, int32_t, int32_t, int32_t, int32_t, ..." },
	/* subroutines */
	{ "strlen", "const char *" },
	{ "strjoin", "const char *, const char *" },
	{ "substr", "const char *, int, [int]" },
	{ "index", "const char *, const char *, [int]" },
	{ "rindex", "const char *, const char *, [int]" },
	{ "strchr", "const char *, char" },
	{ "strrchr", "const char *, char" },
	{ "strstr", "const char *, const char *" },
	{ "strtok", "const char *, const char *" },
	{ "lltostr", "int64_t, [int]" },
	{ "toupper", "const char *" },
	{ "tolower", "const char *" },
	{ "basename", "const char *" },
	{ "dirname", "const char *" },
	{ "cleanpath", "const char *" },
	{ "progenyof", "pid_t" },
	{ "bcopy", "void *, void *, size_t" },
	{ "alloca", "size_t" },
	{ "rand", "" },
	{ "speculation", "" },
	{ "copyin", "uintptr_t, size_t" },
	{ "copyinstr", "uintptr_t, [size_t]" },
	{ "copyinto", "uintptr_t, size_t, void *" },
	{ "copyout", "void *, uintptr_t, size_t" },
	{ "copyoutstr", "char *, uintptr_t, size_t" },
	{ "strtoll", "const char *, [int]" },
	{ "htons", "uint16_t" },
	{ "htonl", "uint32_t" },
	{ "htonll", "uint64_t" },
	{ "ntohs", "uint16_t" },
	{ "ntohl", "uint32_t" },
	{ "ntohll", "uint64_t" },
};

static const char *proto_find(const char *name)
{
	for (size_t i = 0; i < sizeof(dt_protos) / sizeof(dt_protos[0]); i++)
		if (dt_streq(dt_protos[i].pr_name, name))
			return dt_protos[i].pr_args;
	return NULL;
}

/* The shape of a parameter list: required, optional, varargs. */
typedef struct proto_shape {
	uint32_t ps_req;		/* required parameters */
	uint32_t ps_opt;		/* optional parameters after them */
	bool ps_varargs;		/* "..." ends the list */
} proto_shape;

static proto_shape proto_shape_of(const char *s)
{
	proto_shape sh = { 0, 0, false };
	while (*s != '\0') {
		while (*s == ' ' || *s == ',')
			s++;
		if (*s == '\0')
			break;
		if (s[0] == '.')
			sh.ps_varargs = true;
		else if (s[0] == '[')
			sh.ps_opt++;
		else
			sh.ps_req++;
		while (*s != '\0' && *s != ',')
			s++;
	}
	return sh;
}

/*
 * dt_proto_argtype: the C type DTrace prints for parameter i (1-based) of
 * fname into buf, or NULL when the list does not say ("@", "...", beyond
 * the end, or a function not listed).
 */
const char *dt_proto_argtype(const char *fname, uint32_t i, char *buf, size_t len)
{
	const char *s = proto_find(fname);
	if (s == NULL)
		return NULL;
	for (uint32_t k = 1; *s != '\0'; k++) {
		while (*s == ' ' || *s == ',')
			s++;
		const char *e = s;
		while (*e != '\0' && *e != ',')
			e++;
		if (k == i) {
			if (*s == '[') {
				s++;
				e--;		/* drop the brackets */
			}
			size_t n = (size_t)(e - s);
			if (n == 0 || *s == '@' || *s == '.' || n >= len)
				return NULL;
			__builtin_memcpy(buf, s, n);
			buf[n] = '\0';
			return buf;
		}
		s = e;
	}
	return NULL;
}

/*
 * dt_proto_check_len: DTrace's argument-count check of a call to fname
 * with got arguments (D_PROTO_LEN).  Returns false if fname has no
 * prototype here (the caller then applies its own counts).
 */
bool dt_proto_check_len(dt_ctx *ctx, const dt_node *n, const char *fname,
                        uint32_t got)
{
	const char *s = proto_find(fname);
	if (s == NULL)
		return false;
	proto_shape sh = proto_shape_of(s);
	bool bad = got < sh.ps_req || (!sh.ps_varargs &&
	    got > sh.ps_req + sh.ps_opt);
	if (bad)
		dt_error_node(ctx, n, "D_PROTO_LEN", "%s( ) prototype mismatch: "
		    "%u arg%s passed, %s%u expected", fname, got,
		    got == 1 ? "" : "s", sh.ps_opt > 0 ? "at least " : "",
		    sh.ps_req);
	return true;
}

/* ---- printa( ) of several aggregations ---- */

static const char *key_name(const dt_type *t, char *buf, size_t len)
{
	dt_type_name(t, buf, len);
	return buf;
}

/* "%9s": name right-aligned in nine columns, as DTrace prints it. */
static const char *pad9(const char *s, char *buf, size_t len)
{
	size_t n = dt_strlen(s), i = 0;
	for (; n + i < 9 && i + 1 < len; i++)
		buf[i] = ' ';
	dt_snprintf(buf + i, len - i, "%s", s);
	return buf;
}

static bool key_compat(const dt_type *a, const dt_type *b)
{
	if (dt_type_isint(a) && dt_type_isint(b))
		return true;
	if (dt_type_isstring(a) || dt_type_isstring(b))
		return dt_type_isstring(a) && dt_type_isstring(b);
	if (a->ty_kind == DT_TK_STACK || b->ty_kind == DT_TK_STACK ||
	    a->ty_kind == DT_TK_SYMADDR || b->ty_kind == DT_TK_SYMADDR)
		return a->ty_kind == b->ty_kind;
	return dt_sema_assignable(a, b);
}

/*
 * dt_proto_printa_keys: printa( )'s aggregations l (the first) and r
 * must have the same number of keys (D_PRINTA_AGGKEY) of compatible types
 * (D_PRINTA_AGGPROTO).  call is the printa( ) node.
 */
void dt_proto_printa_keys(dt_ctx *ctx, const dt_node *call, const dt_ident *l,
                          const dt_ident *r)
{
	const char *ln = l->id_name + 1, *rn = r->id_name + 1;	/* no '@' */
	if (l->id_nkeys != r->id_nkeys)
		dt_error_node(ctx, call, "D_PRINTA_AGGKEY", "printa( ): @%s and "
		    "@%s do not have matching key signatures: @%s has %u key%s, "
		    "@%s has %u key%s", ln, rn, ln, l->id_nkeys,
		    l->id_nkeys == 1 ? "" : "s", rn, r->id_nkeys,
		    r->id_nkeys == 1 ? "" : "s");
	for (uint32_t i = 0; i < l->id_nkeys; i++) {
		if (l->id_keys[i] == NULL || r->id_keys[i] == NULL ||
		    key_compat(l->id_keys[i], r->id_keys[i]))
			continue;
		char a[64], b[64], pa[64], pb[64];
		dt_error_node(ctx, call, "D_PRINTA_AGGPROTO", "printa( ): @%s[ ] "
		    "key #%u is incompatible with @%s:\n%s key #%u: %s\n%s key "
		    "#%u: %s", rn, i + 1, ln, pad9(ln, pa, sizeof(pa)), i + 1,
		    key_name(l->id_keys[i], a, sizeof(a)), pad9(rn, pb, sizeof(pb)), i + 1,
		    key_name(r->id_keys[i], b, sizeof(b)));
	}
}
