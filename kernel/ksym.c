/*
 * ksym.c - look up the kernel's own symbols.
 *
 * The table is generated at build time (tools/gen_ksyms.sh) from the linked
 * kernel and linked into the .ksyms section, which comes last in the image so
 * no other address moves between the two link passes.  It has three parts:
 *
 *   __ksym_table   struct ksym_entry[__ksym_count], sorted by address
 *   __ksym_byname  uint32_t indexes into __ksym_table, sorted by name
 *   __ksym_names   the names, NUL-terminated, back to back
 *
 * Lookups are binary searches: no locks, no allocation, any context.
 *
 * Tests: tests/unit/kernel_ksym_test.c; self-tests ksym_both_ways;
 *        tests/e2e/test_stacks.py
 */
#include "kernel/klib.h"
#include "kernel/ksym.h"

struct ksym_entry {
	uint64_t ke_addr;
	uint64_t ke_size;
	uint32_t ke_name;            /* offset in __ksym_names */
	uint32_t ke_flags;           /* KSYM_FUNC */
};

#define KSYM_FUNC 1

extern const uint64_t __ksym_count;
extern const struct ksym_entry __ksym_table[];
extern const uint32_t __ksym_byname[];
extern const char __ksym_names[];

static void ksym_fill(const struct ksym_entry *e, struct ksym *out)
{
	out->ks_addr = e->ke_addr;
	out->ks_size = e->ke_size;
	out->ks_name = __ksym_names + e->ke_name;
	out->ks_func = (e->ke_flags & KSYM_FUNC) != 0;
}

size_t ksym_count(void)
{
	return __ksym_count;
}

bool ksym_get(size_t i, struct ksym *out)
{
	if (i >= __ksym_count)
		return false;
	ksym_fill(&__ksym_table[i], out);
	return true;
}

bool ksym_lookup_addr(uint64_t addr, struct ksym *out)
{
	size_t lo = 0, hi = __ksym_count;

	while (lo < hi) {                       /* first entry with ke_addr > addr */
		size_t mid = lo + (hi - lo) / 2;
		if (__ksym_table[mid].ke_addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	const struct ksym_entry *e = &__ksym_table[lo - 1];
	if (addr - e->ke_addr >= MAX(e->ke_size, 1UL))
		return false;
	ksym_fill(e, out);
	return true;
}

bool ksym_lookup_name(const char *name, struct ksym *out)
{
	size_t lo = 0, hi = __ksym_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ksym_entry *e = &__ksym_table[__ksym_byname[mid]];
		int c = strcmp(__ksym_names + e->ke_name, name);
		if (c == 0) {
			ksym_fill(e, out);
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

char *ksym_format(uint64_t addr, char *buf, size_t size)
{
	struct ksym s;

	if (ksym_lookup_addr(addr, &s))
		ksnprintf(buf, size, "%s+0x%lx", s.ks_name, addr - s.ks_addr);
	else
		ksnprintf(buf, size, "0x%lx", addr);
	return buf;
}
