/*
 * bootinfo.c - read what the boot loader left us into struct boot_info.
 *
 * multiboot2 (GRUB): a list of 8-byte-aligned tags: command line (1), module
 * (3), memory map (6).  PVH (QEMU -kernel): struct hvm_start_info with a
 * command line address, a module list (-initrd) and an E820-style memory map.
 * Both are reached through the boot identity map, so this runs before
 * vm_init().  Anything malformed is skipped with a message, never trusted.
 */
#include "arch/arch.h"
#include "kernel/boot.h"
#include "kernel/klib.h"

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

static void mem_add(uint64_t base, uint64_t len, uint32_t e820)
{
	if (boot_info.bi_nmem == BOOT_MAX_MEMMAP || len == 0)
		return;
	boot_info.bi_mem[boot_info.bi_nmem++] = (struct boot_mem){ base, len, mem_type(e820) };
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
		if (t->type == 6) {
			uint32_t esize = ((uint32_t *)t)[2];
			for (uint64_t e = p + 16; esize >= 24 && e + esize <= p + t->size; e += esize) {
				struct mb2_mmap_entry *me = (struct mb2_mmap_entry *)e;
				mem_add(me->base, me->len, me->type);
			}
		}
		p += ALIGN_UP(t->size, 8);
	}
}

static void pvh_parse(uint32_t info)
{
	struct hvm_start_info *si = (struct hvm_start_info *)(uint64_t)info;

	boot_info.bi_loader = "pvh";
	if (si->cmdline_paddr != 0)
		kstrlcpy(boot_info.bi_cmdline, (char *)si->cmdline_paddr, sizeof(boot_info.bi_cmdline));
	struct hvm_memmap_entry *mm = (struct hvm_memmap_entry *)si->memmap_paddr;
	for (uint32_t i = 0; si->version >= 1 && mm != NULL && i < si->memmap_entries; i++)
		mem_add(mm[i].addr, mm[i].size, mm[i].type);
	struct hvm_modlist_entry *ml = (struct hvm_modlist_entry *)si->modlist_paddr;
	for (uint32_t i = 0; ml != NULL && i < si->nr_modules; i++)
		mod_add(ml[i].paddr, ml[i].paddr + ml[i].size,
		        ml[i].cmdline_paddr ? (char *)ml[i].cmdline_paddr : "initrd");
}

void arch_boot_info(uint32_t magic, uint32_t info)
{
	if (magic == MB2_BOOT_MAGIC)
		mb2_parse(info);
	else if (magic == PVH_MAGIC && *(uint32_t *)(uint64_t)info == PVH_MAGIC)
		pvh_parse(info);
	else
		panic("boot: unknown boot loader (magic %#x)", magic);
	if (boot_info.bi_nmem == 0)
		panic("boot: the %s loader gave no memory map", boot_info.bi_loader);
}
