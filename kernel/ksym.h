/*
 * ksym.h - the kernel symbol table embedded in the image.
 *
 * The build links the kernel, extracts its symbols with nm, and links again
 * with the table placed after everything else so no address moves
 * (tools/gen_ksyms.sh).  Lookups work in any context (no locks, no allocation).
 */
#ifndef SONDE_KSYM_H
#define SONDE_KSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t ks_addr;
	uint64_t ks_size;
	const char *ks_name;
	bool ks_func;                /* a text symbol */
};

/* ksym_lookup_addr: the symbol containing addr; fills *out and returns true. */
bool ksym_lookup_addr(uint64_t addr, struct ksym *out);
/* ksym_lookup_name: the symbol called name; fills *out and returns true. */
bool ksym_lookup_name(const char *name, struct ksym *out);
/* ksym_count/ksym_get: iterate in address order (i < ksym_count()). */
size_t ksym_count(void);
bool ksym_get(size_t i, struct ksym *out);
/* ksym_format: "func+0x1c" (or "0x..." if unknown) into buf; returns buf. */
char *ksym_format(uint64_t addr, char *buf, size_t size);

#endif
