/*
 * kernel/ctf.h: reading the kernel's own types (CTF, the Compact C Type
 * Format).
 *
 * The build compiles the kernel with gcc's -gctf, links with
 * ld --ctf-variables and flattens the result into one uncompressed CTF v3
 * dict (tools/ctf_flatten.c), which the image carries in its .kctf section.
 * This reader answers the D compiler's questions about it: a type by name,
 * a type's kind, size and members, a function's argument and return types,
 * a variable's type, and a type's name as C writes it.
 *
 * The format, as far as this reader needs it (all integers little-endian,
 * on every machine: ld writes the dict in its own machine's byte order,
 * and tools/ctf_flatten.c rewrites a big-endian one, tools/ctf_order.c; a
 * big-endian dict is refused here by name):
 *   header   magic 0xdff2, version 4, flags; then twelve uint32s: parent
 *            label, parent name, CU name, and the offsets (from the end of
 *            the header) of the label, object, function, object index,
 *            function index, variable, type and string sections, and the
 *            string section's length
 *   vars     {name, type} pairs sorted by name: every function and variable
 *            of the kernel (what --ctf-variables keeps)
 *   types    records numbered from 1: {name, info, size-or-type} (info =
 *            kind << 26 | root << 25 | vlen), a large size in two more
 *            words when size is 0xffffffff, then per kind: an int's or
 *            float's encoding word; an array's {element, index, count};
 *            a function's vlen argument types (padded to an even count; a
 *            last argument of 0 means "...", return type in size-or-type);
 *            a struct's or union's vlen {name, bit offset, type} members
 *            ({name, offset high, type, offset low} when large); an enum's
 *            vlen {name, value}; a slice's {base, bit offset, bits}
 *   strings  NUL-terminated names; a name is an offset into them
 *
 * Safety: ctf_open() checks everything before the dict is used: the header,
 * that every section lies inside the buffer and in order, that every type
 * record and its variable part fit, that every name is an offset into the
 * string section (which must end in a NUL) and every type reference names
 * a type of the dict.  A dict that fails is refused with a message, never
 * read.  The accessors still check their arguments (a type id out of range,
 * a member index past vlen), and everything that follows references
 * (ctf_resolve, ctf_type_name) is bounded in depth, since a corrupt dict
 * could still make typedefs that refer to each other.
 *
 * Context: freestanding (no kernel calls, no globals), reentrant; the
 * kernel opens its dict once at boot (ctf_kernel), the host tests and dtc
 * open files.  Nothing here runs in probe context.
 */
#ifndef SONDE_CTF_H
#define SONDE_CTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Type kinds, as the format numbers them. */
enum {
	CTF_KIND_UNKNOWN = 0, CTF_KIND_INT, CTF_KIND_FLOAT, CTF_KIND_PTR,
	CTF_KIND_ARRAY, CTF_KIND_FUNC, CTF_KIND_STRUCT, CTF_KIND_UNION,
	CTF_KIND_ENUM, CTF_KIND_FORWARD, CTF_KIND_TYPEDEF, CTF_KIND_VOLATILE,
	CTF_KIND_CONST, CTF_KIND_RESTRICT, CTF_KIND_SLICE,
};

/* An integer's encoding bits. */
#define CTF_ENC_SIGNED	0x1
#define CTF_ENC_CHAR	0x2
#define CTF_ENC_BOOL	0x4

typedef struct ctf_dict {
	const uint8_t *cd_types;	/* the type section */
	const char *cd_strs;		/* the string section (ends in NUL) */
	const uint8_t *cd_vars;		/* {name, type} pairs */
	uint32_t cd_typelen, cd_strlen, cd_nvars;
	uint32_t cd_ntypes;		/* types are 1..cd_ntypes */
	uint32_t *cd_index;		/* [id]: offset of type id's record */
	uint32_t *cd_names;		/* hash of named types' ids (0: empty) */
	uint32_t cd_namecap;		/* its slots, a power of two */
	size_t cd_size;			/* bytes of the whole dict */
	const char *cd_err;		/* why ctf_open refused it */
} ctf_dict_t;

typedef struct ctf_typeinfo {
	uint32_t ti_kind;		/* CTF_KIND_* */
	const char *ti_name;		/* "" if it has none */
	uint64_t ti_size;		/* bytes: int, float, struct, union, enum */
	uint32_t ti_ref;		/* pointee, typedef/qualifier/slice base, */
					/* array element, function return */
	uint32_t ti_vlen;		/* members, enumerators, arguments */
	uint32_t ti_nelem;		/* array elements */
	uint32_t ti_enc;		/* int: CTF_ENC_*; float: its encoding */
	uint32_t ti_bits;		/* int or slice: width in bits */
	uint32_t ti_bitoff;		/* int or slice: offset in bits */
	bool ti_varargs;		/* function: ends in "..." */
} ctf_typeinfo_t;

/*
 * ctf_open: check the dict in buf[0..len) and make it readable through d.
 *   alloc  memory for the type index and the name hash (4 bytes per
 *          type, then 8 to 16 per type; never freed by this file; a NULL
 *          return refuses the dict)
 * Returns 0, or -1 with d->cd_err saying why.  The dict keeps pointing into
 * buf.  Any context that may allocate.
 */
int ctf_open(ctf_dict_t *d, const void *buf, size_t len,
    void *(*alloc)(size_t));

/* ctf_type: type id's record; 0, or -1 if id is not a type of d. */
int ctf_type(const ctf_dict_t *d, uint32_t id, ctf_typeinfo_t *ti);
/* ctf_member: struct/union id's member i (bit offset); 0 or -1. */
int ctf_member(const ctf_dict_t *d, uint32_t id, uint32_t i,
    const char **name, uint32_t *type, uint64_t *bitoff);
/* ctf_enumerator: enum id's enumerator i; 0 or -1. */
int ctf_enumerator(const ctf_dict_t *d, uint32_t id, uint32_t i,
    const char **name, int32_t *value);
/* ctf_arg: function type id's argument i (0: "..."); 0 or -1. */
int ctf_arg(const ctf_dict_t *d, uint32_t id, uint32_t i, uint32_t *type);
/*
 * ctf_lookup: the type called name: kind CTF_KIND_STRUCT, _UNION or _ENUM
 * for a tag ("thread" of struct thread; a complete definition is preferred
 * to a forward one), or CTF_KIND_TYPEDEF for a typedef name, or
 * CTF_KIND_INT for a base type (int, float or void named so).  0: none.
 */
uint32_t ctf_lookup(const ctf_dict_t *d, uint32_t kind, const char *name);
/* ctf_var: the type of the kernel function or variable name; 0: none. */
uint32_t ctf_var(const ctf_dict_t *d, const char *name);
/* ctf_resolve: id without typedefs and qualifiers (bounded); 0 on a loop. */
uint32_t ctf_resolve(const ctf_dict_t *d, uint32_t id);
/*
 * ctf_type_name: id's name as C writes it ("struct thread *", "const char
 * *", "char [16]", "int (*)(void *)") into buf (always NUL-terminated).
 * Returns buf.
 */
char *ctf_type_name(const ctf_dict_t *d, uint32_t id, char *buf, size_t len);

/*
 * ctf_func_argname: fbt's type of argument argno of function func (its
 * entry probe: the parameters; its return probe (ret): args[0] is the
 * return site's offset, an int, args[1] the return value), as C names it.
 * Returns 0, or -1 if the function, the argument or its type is unknown
 * (a void return has no args[1]).
 */
int ctf_func_argname(const ctf_dict_t *d, const char *func, bool ret,
    int argno, char *buf, size_t len);

/*
 * The kernel's own dict (kernel/ctf_kernel.c): opened at boot from .kctf.
 * NULL when the image has no types or they failed ctf_open (boot said why).
 * Any context after boot.
 */
const ctf_dict_t *ctf_kernel(void);
void ctf_kernel_init(void);

#endif /* SONDE_CTF_H */
