/*
 * boot.h - what the kernel learned from the boot loader.
 *
 * arch/x86_64/bootinfo.c fills one struct boot_info from a multiboot2
 * information structure (GRUB), a PVH hvm_start_info (QEMU -kernel) or the
 * UEFI loader's struct sonde_handoff (boot/efi/handoff.h); the rest of the
 * kernel reads only this.
 */
#ifndef SONDE_BOOT_H
#define SONDE_BOOT_H

#include <stdint.h>

#define BOOT_MAX_MEMMAP   64
#define BOOT_MAX_MODULES  16
#define BOOT_CMDLINE_MAX  1024

enum boot_mem_type { BOOT_MEM_USABLE = 1, BOOT_MEM_RESERVED, BOOT_MEM_ACPI, BOOT_MEM_NVS, BOOT_MEM_BAD };

struct boot_mem {
	uint64_t bm_base;
	uint64_t bm_len;
	enum boot_mem_type bm_type;
};

struct boot_module {
	uint64_t bmod_start;         /* physical */
	uint64_t bmod_end;
	char bmod_name[64];
};

struct boot_info {
	const char *bi_loader;       /* "multiboot2", "pvh", "uefi" */
	char bi_cmdline[BOOT_CMDLINE_MAX];
	int bi_nmem;
	struct boot_mem bi_mem[BOOT_MAX_MEMMAP];
	int bi_nmod;
	struct boot_module bi_mod[BOOT_MAX_MODULES];
	uint64_t bi_rsdp;            /* ACPI RSDP (physical) if the loader said; else 0 */
};

extern struct boot_info boot_info;

/*
 * cmdline_get: the value of key=value (quotes allowed: cmd="ps; halt") in the
 * kernel command line, copied to buf; or for a bare flag, "".  Returns
 * false if key is absent.
 */
#include <stdbool.h>
#include <stddef.h>
bool cmdline_get(const char *cmdline, const char *key, char *buf, size_t size);

#endif
