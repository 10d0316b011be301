/*
 * dtc_typeprint.c - print(): a recorded value printed by its D type.
 *
 * print(x) records x as trace(x) does (a scalar as 8 bytes, a struct,
 * union, array or long double as its bytes, a string as strsize bytes) and
 * the program object keeps x's D type (dt_action.ac_type).  The consumer
 * prints it the way illumos's libdtrace prints types:
 *
 *   - the top line is the type's name and the value: "int 0x2a",
 *     "struct foo {";
 *   - a struct or union lists its members one a line, indented four spaces
 *     a level, as "TYPE NAME = VALUE" ("char *p = ...", a bit-field
 *     "TYPE NAME :BITS = VALUE"), nested aggregates opening "{" and closing
 *     "}" at their level;
 *   - integers, enums and pointers are hexadecimal with 0x, zero as "0"
 *     (an integer is shown at its own width: a short of -1 is 0xffff);
 *   - arrays are "[ A, B, C ]", an array of char that holds a string
 *     "[ "text" ]"; strings are quoted; floating values use %g;
 *   - the output ends with a newline.
 * Only D-declared types exist until the kernel's types (CTF) come; every
 * size and offset used here is the compiler's own, so the bytes are read
 * within the record the type describes.  Byte order: a member is read as an
 * integer of its own size where it lies (tp_uint); a scalar's 8-byte record
 * is first made an object of the scalar's size (its low bytes, which come
 * last on a big-endian machine).
 *
 * Context: the consumer (thread context).
 *
 * Tests: tests/d/types, tests/d/ctf (print())
 */
#include "kernel/klib.h"
#include "console/dtrace/dtc.h"

#define TP_MAXDEPTH 8

static void tp_value(const dt_type *t, const uint8_t *p, int depth);

static void tp_indent(int depth)
{
	dtc_out("%*s", depth * 4, "");
}

/* tp_uint: the size-byte integer at p, as this machine lays one out in memory, zero-extended. */
static uint64_t tp_uint(const uint8_t *p, uint32_t size)
{
	uint16_t v2;
	uint32_t v4;
	uint64_t v8 = 0;

	switch (size) {
	case 1:
		return p[0];
	case 2:
		memcpy(&v2, p, 2);
		return v2;
	case 4:
		memcpy(&v4, p, 4);
		return v4;
	default:
		memcpy(&v8, p, 8);
		return v8;
	}
}

void dtc_scalar_bytes(uint8_t *p, uint64_t v, uint32_t size)
{
	uint16_t v2 = (uint16_t)v;
	uint32_t v4 = (uint32_t)v;

	if (size == 1)
		p[0] = (uint8_t)v;
	else if (size == 2)
		memcpy(p, &v2, 2);
	else if (size == 4)
		memcpy(p, &v4, 4);
	else
		memcpy(p, &v, 8);
}

/* A scalar (not an aggregate, a string or a long double) is recorded as one 64-bit value. */
static bool tp_recorded_as_scalar(const dt_type *t)
{
	switch (t->ty_kind) {
	case DT_TK_STRUCT: case DT_TK_UNION: case DT_TK_ARRAY: case DT_TK_STRING:
		return false;
	case DT_TK_FLOAT:
		return t->ty_size <= 8;
	default:
		return true;
	}
}

static void tp_hex(uint64_t v)
{
	if (v == 0)
		dtc_out("0");
	else
		dtc_out("%#llx", (unsigned long long)v);
}

static bool tp_is_char(const dt_type *t)
{
	return t->ty_kind == DT_TK_INT && t->ty_size == 1 && t->ty_bits == 0;
}

static void tp_array(const dt_type *t, const uint8_t *p, int depth)
{
	const dt_type *e = t->ty_base;
	uint32_t n = t->ty_nelem;

	if (tp_is_char(e) && n > 0) {
		uint32_t len = 0;
		while (len < n && p[len] >= 0x20 && p[len] < 0x7f)
			len++;
		if (len > 0 && (len == n || p[len] == 0)) {
			dtc_out("[ \"%.*s\" ]", (int)len, (const char *)p);
			return;
		}
	}
	dtc_out("[ ");
	for (uint32_t i = 0; i < n; i++) {
		if (i > 0)
			dtc_out(", ");
		tp_value(e, p + (uint64_t)i * e->ty_size, depth);
	}
	dtc_out(" ]");
}

static void tp_member_line(const dt_member *m, const uint8_t *p, int depth)
{
	char tn[160];

	dt_type_name(m->m_type, tn, sizeof(tn));
	size_t n = strlen(tn);
	const char *sp = n > 0 && tn[n - 1] == '*' ? "" : " ";   /* "char *p" */
	tp_indent(depth);
	if (m->m_type->ty_bits != 0)
		dtc_out("%s%s%s :%u = ", tn, sp, m->m_name, m->m_type->ty_bits);
	else
		dtc_out("%s%s%s = ", tn, sp, m->m_name);
	tp_value(m->m_type, p + m->m_off, depth);
	dtc_out("\n");
}

static void tp_sou(const dt_type *t, const uint8_t *p, int depth)
{
	dtc_out("{\n");
	for (const dt_member *m = t->ty_members; m != NULL; m = m->m_next)
		if (m->m_name[0] != '<')            /* unnamed bit-fields: padding */
			tp_member_line(m, p, depth + 1);
	tp_indent(depth);
	dtc_out("}");
}

static void tp_value(const dt_type *t, const uint8_t *p, int depth)
{
	char text[64];

	if (depth > TP_MAXDEPTH) {
		dtc_out("...");
		return;
	}
	switch (t->ty_kind) {
	case DT_TK_STRUCT: case DT_TK_UNION:
		tp_sou(t, p, depth);
		break;
	case DT_TK_ARRAY:
		tp_array(t, p, depth);
		break;
	case DT_TK_STRING:
		dtc_out("\"%s\"", (const char *)p);
		break;
	case DT_TK_FLOAT:
		dtc_float_format(text, sizeof(text), "%g", p, t->ty_size);
		dtc_out("%s", text);
		break;
	case DT_TK_PTR:
		tp_hex(tp_uint(p, 8));
		break;
	default: {
		uint64_t v = tp_uint(p, t->ty_size == 0 ? 8 : t->ty_size);
		if (t->ty_bits != 0 && t->ty_bits < 64)
			v &= ((uint64_t)1 << t->ty_bits) - 1;
		tp_hex(v);
		break;
	}
	}
}

void dtc_print_typed(const dt_type *t, const dif_difo_t *dp, const uint8_t *data)
{
	char tn[160];

	(void)dp;
	if (t == NULL)
		return;
	dt_type_name(t, tn, sizeof(tn));
	dtc_out("%s ", tn);
	if (tp_recorded_as_scalar(t) && t->ty_size > 0 && t->ty_size < 8) {
		uint8_t native[8];                   /* the record's value as an object of its size */
		uint64_t v;
		memcpy(&v, data, 8);
		dtc_scalar_bytes(native, v, t->ty_size);
		tp_value(t, native, 0);
	} else {
		tp_value(t, data, 0);
	}
	dtc_out("\n");
}
