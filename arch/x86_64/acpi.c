/*
 * acpi.c - just enough ACPI to find the CPUs: the RSDP, the RSDT or XSDT,
 * and the MADT ("APIC") with one local-APIC entry per processor.
 *
 * The RSDP comes from the boot loader when it says (boot_info.bi_rsdp),
 * else from a scan of the BIOS area (0xe0000-0xfffff) for "RSD PTR ".  Every
 * table is checked (signature, length bounds, checksum) before it is trusted;
 * anything wrong means "one CPU", never a crash.
 *
 * Tests: self-tests smp_* (tests/kernel/smp_selftest.c) on 4 CPUs;
 *        tests/e2e/test_smp.py
 */
#include "arch/x86_64/x86.h"
#include "kernel/boot.h"
#include "kernel/klib.h"
#include "kernel/mem.h"

struct acpi_rsdp {
	char sig[8];
	uint8_t checksum;
	char oem[6];
	uint8_t revision;
	uint32_t rsdt;
	uint32_t length;
	uint64_t xsdt;
	uint8_t xchecksum;
	uint8_t reserved[3];
} __attribute__((packed));

struct acpi_header {
	char sig[4];
	uint32_t length;
	uint8_t revision;
	uint8_t checksum;
	char oem[6];
	char oem_table[8];
	uint32_t oem_rev;
	uint32_t creator;
	uint32_t creator_rev;
} __attribute__((packed));

static bool sum_ok(const void *p, size_t n)
{
	uint8_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += ((const uint8_t *)p)[i];
	return s == 0;
}

/*
 * in_map: is [pa, pa+len) inside one region of the boot memory map (ACPI
 * tables usually sit in reserved or ACPI regions) and inside the direct map?
 */
static bool in_map(uint64_t pa, uint64_t len)
{
	uint64_t dmap_end = ALIGN_UP(pmem_ram_end(), 2UL << 20);

	if (pa + len < pa || pa + len > dmap_end)
		return false;
	for (int i = 0; i < boot_info.bi_nmem; i++) {
		const struct boot_mem *m = &boot_info.bi_mem[i];
		if (m->bm_type != BOOT_MEM_BAD && pa >= m->bm_base && pa + len <= m->bm_base + m->bm_len)
			return true;
	}
	return false;
}

static const struct acpi_rsdp *rsdp_find(void)
{
	if (boot_info.bi_rsdp != 0 && in_map(boot_info.bi_rsdp, sizeof(struct acpi_rsdp))) {
		const struct acpi_rsdp *r = phys_to_virt(boot_info.bi_rsdp);
		if (memcmp(r->sig, "RSD PTR ", 8) == 0 && sum_ok(r, 20))
			return r;
	}
	for (uint64_t pa = 0xe0000; pa < 0x100000; pa += 16) {
		const struct acpi_rsdp *r = phys_to_virt(pa);
		if (memcmp(r->sig, "RSD PTR ", 8) == 0 && sum_ok(r, 20))
			return r;
	}
	return NULL;
}

/* table_at: the table at physical pa, inside the memory map and whole, with a good checksum. */
static const struct acpi_header *table_at(uint64_t pa)
{
	if (pa == 0 || !in_map(pa, sizeof(struct acpi_header)))
		return NULL;
	const struct acpi_header *h = phys_to_virt(pa);
	if (h->length < sizeof(*h) || h->length > (1u << 20) || !in_map(pa, h->length) ||
	    !sum_ok(h, h->length))
		return NULL;
	return h;
}

static const struct acpi_header *madt_find(void)
{
	const struct acpi_rsdp *r = rsdp_find();

	if (r == NULL)
		return NULL;
	bool x = r->revision >= 2 && r->xsdt != 0;
	const struct acpi_header *root = table_at(x ? r->xsdt : r->rsdt);
	if (root == NULL)
		return NULL;
	uint32_t esize = x ? 8 : 4, n = (root->length - sizeof(*root)) / esize;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t pa = 0;
		memcpy(&pa, (const uint8_t *)(root + 1) + i * esize, esize);
		const struct acpi_header *t = table_at(pa);
		if (t != NULL && memcmp(t->sig, "APIC", 4) == 0)
			return t;
	}
	return NULL;
}

/*
 * acpi_cpus: the local APIC ids of the enabled processors, in MADT order
 * (at most max); returns how many, 0 if ACPI gave no answer.
 */
int acpi_cpus(uint32_t *ids, int max)
{
	const struct acpi_header *m = madt_find();
	int n = 0;

	if (m == NULL)
		return 0;
	const uint8_t *p = (const uint8_t *)m + sizeof(*m) + 8, *end = (const uint8_t *)m + m->length;
	while (p + 2 <= end && p[1] >= 2 && p + p[1] <= end) {
		if (p[0] == 0 && p[1] >= 8 && (p[4] & 1) && n < max)   /* processor local APIC */
			ids[n++] = p[3];
		p += p[1];
	}
	return n;
}
