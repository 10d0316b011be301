/*
 * bootinfo.c - read what the boot loader left us into struct boot_info.
 *
 * multiboot2 (GRUB): a list of 8-byte-aligned tags: command line (1), module
 * (3), memory map (6), a copy of the ACPI RSDP (14, 15).  PVH (QEMU -kernel): struct hvm_start_info with a
 * command line address, a module list (-initrd) and an E820-style memory map.
 * UEFI (Sonde's loader, boot/efi/handoff.h): struct sonde_handoff with the
 * firmware's final memory map, the command line, the modules and the RSDP.
 * All are reached through the boot identity map, so this runs before
 * vm_init(), and everything kept is copied into boot_info, so the loader's
 * memory may be reused afterwards.  Anything malformed is skipped with a
 * message, never trusted.
 *
 * Tests: tests/e2e/test_boot.py (every boot path), tests/e2e/test_efi.py
 */
#include "arch/arch.h"
#include "boot/efi/handoff.h"
#include "kernel/boot.h"
#include "kernel/klib.h"
#include "kernel/mem.h"

#define MB2_BOOT_MAGIC 0x36d76289
#define PVH_MAGIC      0x336ec578

struct boot_info boot_info;

struct mb2_tag { uint32_t type, size; };
struct mb2_mmap_entry { uint64_t base, len; uint32_t type, reserved; };
struct mb2_module { uint32_t type, size, start, end; char name[]; };

struct hvm_start_info {
	uint32_t magic, version, flags, nr_modules;
	uint64_t modlist_paddr, cmdline_paddr, rsdp_paddr, memmap_paddr;
	uint32_t memmap_entries, reserved;
};
struct hvm_modlist_entry { uint64_t paddr, size, cmdline_paddr, reserved; };
struct hvm_memmap_entry { uint64_t addr, size; uint32_t type, reserved; };

static enum boot_mem_type mem_type(uint32_t e820)
{
	switch (e820) {
	case 1: return BOOT_MEM_USABLE;
	case 3: return BOOT_MEM_ACPI;
	case 4: return BOOT_MEM_NVS;
	case 5: return BOOT_MEM_BAD;
	default: return BOOT_MEM_RESERVED;
	}
}

static void mem_add(uint64_t base, uint64_t len, enum boot_mem_type type)
{
	if (boot_info.bi_nmem == BOOT_MAX_MEMMAP || len == 0)
		return;
	boot_info.bi_mem[boot_info.bi_nmem++] = (struct boot_mem){ base, len, type };
}

static void mod_add(uint64_t start, uint64_t end, const char *name)
{
	struct boot_module *m;

	if (boot_info.bi_nmod == BOOT_MAX_MODULES || end < start)
		return;
	m = &boot_info.bi_mod[boot_info.bi_nmod++];
	m->bmod_start = start;
	m->bmod_end = end;
	kstrlcpy(m->bmod_name, name ? name : "", sizeof(m->bmod_name));
}

/*
 * mb2_rsdp: multiboot2 gives a copy of the RSDP (tag 14: ACPI 1.0, tag 15:
 * 2.0), not its address, in memory that becomes free; keep the copy in the
 * kernel image and point bi_rsdp at it.  Tag 15 wins over tag 14.
 */
static void mb2_rsdp(const struct mb2_tag *t)
{
	static uint8_t copy[36] __attribute__((aligned(16)));
	uint32_t len = t->size - sizeof(*t);

	if (t->type == 14 && boot_info.bi_rsdp != 0)
		return;
	memset(copy, 0, sizeof(copy));
	memcpy(copy, t + 1, MIN(len, (uint32_t)sizeof(copy)));
	boot_info.bi_rsdp = virt_to_phys(copy);
}

static void mb2_parse(uint32_t info)
{
	uint32_t total = *(uint32_t *)(uint64_t)info;
	uint64_t p = (uint64_t)info + 8, end = (uint64_t)info + total;

	boot_info.bi_loader = "multiboot2";
	while (p + sizeof(struct mb2_tag) <= end) {
		struct mb2_tag *t = (struct mb2_tag *)p;
		if (t->type == 0 || t->size < 8)
			break;
		if (t->type == 1)
			kstrlcpy(boot_info.bi_cmdline, (char *)(t + 1), sizeof(boot_info.bi_cmdline));
		if (t->type == 3) {
			struct mb2_module *m = (struct mb2_module *)t;
			mod_add(m->start, m->end, m->name);
		}
		if (t->type == 14 || t->type == 15)
			mb2_rsdp(t);
		if (t->type == 6) {
			uint32_t esize = ((uint32_t *)t)[2];
			for (uint64_t e = p + 16; esize >= 24 && e + esize <= p + t->size; e += esize) {
				struct mb2_mmap_entry *me = (struct mb2_mmap_entry *)e;
				mem_add(me->base, me->len, mem_type(me->type));
			}
		}
		p += ALIGN_UP(t->size, 8);
	}
}

static void pvh_parse(uint32_t info)
{
	struct hvm_start_info *si = (struct hvm_start_info *)(uint64_t)info;

	boot_info.bi_loader = "pvh";
	boot_info.bi_rsdp = si->rsdp_paddr;
	if (si->cmdline_paddr != 0)
		kstrlcpy(boot_info.bi_cmdline, (char *)si->cmdline_paddr, sizeof(boot_info.bi_cmdline));
	struct hvm_memmap_entry *mm = (struct hvm_memmap_entry *)si->memmap_paddr;
	for (uint32_t i = 0; si->version >= 1 && mm != NULL && i < si->memmap_entries; i++)
		mem_add(mm[i].addr, mm[i].size, mem_type(mm[i].type));
	struct hvm_modlist_entry *ml = (struct hvm_modlist_entry *)si->modlist_paddr;
	for (uint32_t i = 0; ml != NULL && i < si->nr_modules; i++)
		mod_add(ml[i].paddr, ml[i].paddr + ml[i].size,
		        ml[i].cmdline_paddr ? (char *)ml[i].cmdline_paddr : "initrd");
}

/*
 * efi_mem_type: what a UEFI memory type is to us once boot services are
 * gone.  Boot services code and data and the loader's own memory become
 * free (the kernel image and the modules are kept out of the page allocator
 * by pmem.c); runtime services, ACPI tables and NVS, MMIO and anything
 * unknown stay untouched.
 */
static enum boot_mem_type efi_mem_type(const struct sonde_efi_memdesc *d)
{
	if (d->md_attr & SONDE_EFI_MEMORY_RUNTIME)
		return BOOT_MEM_RESERVED;
	switch (d->md_type) {
	case SONDE_EFI_LOADER_CODE: case SONDE_EFI_LOADER_DATA:
	case SONDE_EFI_BS_CODE: case SONDE_EFI_BS_DATA:
	case SONDE_EFI_CONVENTIONAL:
		return BOOT_MEM_USABLE;
	case SONDE_EFI_ACPI_RECLAIM: return BOOT_MEM_ACPI;
	case SONDE_EFI_ACPI_NVS: return BOOT_MEM_NVS;
	case SONDE_EFI_UNUSABLE: return BOOT_MEM_BAD;
	default: return BOOT_MEM_RESERVED;
	}
}

/*
 * efi_mem_add: one UEFI descriptor, merged into the previous entry when it
 * continues it with the same type: OVMF's map has over a hundred entries,
 * boot_info room for BOOT_MAX_MEMMAP.
 */
static void efi_mem_add(const struct sonde_efi_memdesc *d)
{
	enum boot_mem_type type = efi_mem_type(d);
	uint64_t len = d->md_pages * 4096;
	struct boot_mem *last = boot_info.bi_nmem > 0 ? &boot_info.bi_mem[boot_info.bi_nmem - 1] : NULL;

	if (d->md_pages == 0 || d->md_pages > (1ULL << 40) || d->md_phys + len < d->md_phys)
		return;
	if (last != NULL && last->bm_type == type && last->bm_base + last->bm_len == d->md_phys)
		last->bm_len += len;
	else if (boot_info.bi_nmem == BOOT_MAX_MEMMAP)
		kprintf("boot: UEFI memory map too long; %#lx-%#lx ignored\n", d->md_phys, d->md_phys + len);
	else
		mem_add(d->md_phys, len, type);
}

static void efi_parse(uint32_t info)
{
	const struct sonde_handoff *h = (const struct sonde_handoff *)(uint64_t)info;

	boot_info.bi_loader = "uefi";
	if (h->sh_version != SONDE_HANDOFF_VERSION)
		panic("boot: UEFI hand-off version %u, expected %u", h->sh_version, SONDE_HANDOFF_VERSION);
	boot_info.bi_rsdp = h->sh_rsdp;
	if (h->sh_cmdline != 0 && h->sh_cmdline < SONDE_HANDOFF_LIMIT)
		kstrlcpy(boot_info.bi_cmdline, (const char *)h->sh_cmdline, sizeof(boot_info.bi_cmdline));
	if (h->sh_desc_size >= sizeof(struct sonde_efi_memdesc) &&
	    h->sh_memmap + h->sh_memmap_size <= SONDE_HANDOFF_LIMIT) {
		for (uint64_t off = 0; off + h->sh_desc_size <= h->sh_memmap_size; off += h->sh_desc_size)
			efi_mem_add((const struct sonde_efi_memdesc *)(h->sh_memmap + off));
	}
	const struct sonde_handoff_module *ml = (const struct sonde_handoff_module *)h->sh_modlist;
	if (h->sh_modlist + (uint64_t)h->sh_nmod * sizeof(*ml) > SONDE_HANDOFF_LIMIT)
		ml = NULL;
	for (uint32_t i = 0; ml != NULL && i < h->sh_nmod; i++) {
		char name[SONDE_MODNAME_MAX];
		kstrlcpy(name, ml[i].shm_name, sizeof(name));
		mod_add(ml[i].shm_start, ml[i].shm_start + ml[i].shm_size, name);
	}
}

void arch_boot_info(uint32_t magic, uint32_t info)
{
	if (magic == MB2_BOOT_MAGIC)
		mb2_parse(info);
	else if (magic == PVH_MAGIC && *(uint32_t *)(uint64_t)info == PVH_MAGIC)
		pvh_parse(info);
	else if (magic == SONDE_EFI_MAGIC && *(uint32_t *)(uint64_t)info == SONDE_EFI_MAGIC)
		efi_parse(info);
	else
		panic("boot: unknown boot loader (magic %#x)", magic);
	if (boot_info.bi_nmem == 0)
		panic("boot: the %s loader gave no memory map", boot_info.bi_loader);
}
