/*
 * handoff.h - the UEFI loader's hand-off to the kernel (shared by
 * boot/efi/loader.c and arch/x86_64/bootinfo.c).
 *
 * BOOTX64.EFI (boot/efi/) loads kernel.elf's PT_LOAD segments at their
 * physical addresses, exits boot services and jumps to the kernel's 64-bit
 * entry efi_entry (boot/boot.asm), whose physical address it finds in an ELF
 * note of kernel.elf:
 *
 *   name "Sonde", type SONDE_NOTE_EFI_ENTRY, 8-byte value = entry address
 *
 * The machine state at efi_entry:
 *
 *   - 64-bit long mode, paging on with the firmware's page tables, which
 *     identity-map all memory (so the boot stub runs at its physical address);
 *   - interrupts off (cli), boot services exited, the firmware's GDT still
 *     loaded (efi_entry loads its own before anything else);
 *   - eax = SONDE_EFI_MAGIC, ebx = physical address of struct sonde_handoff;
 *   - no stack is promised (efi_entry sets its own).
 *
 * The handoff, the memory map, the command line and the module list all lie
 * below SONDE_HANDOFF_LIMIT (1 GiB), inside the identity map of the kernel's
 * boot page tables, and in loader-data memory that the kernel may reuse once
 * arch_boot_info() has copied them (it copies everything it keeps).  Modules
 * stay in loader-data memory below the limit too; the kernel keeps them out
 * of its page allocator through boot_info.bi_mod.  The memory map is the one
 * returned by the GetMemoryMap() call whose key ExitBootServices() accepted,
 * so it is exactly the firmware's final view.
 *
 * Every address here is physical; every field is fixed-width so that the
 * gnu-efi build (loader) and the kernel build agree on the layout.
 */
#ifndef SONDE_BOOT_EFI_HANDOFF_H
#define SONDE_BOOT_EFI_HANDOFF_H

#include <stdint.h>

#define SONDE_EFI_MAGIC        0x53efb007u  /* in eax at efi_entry, and in sh_magic */
#define SONDE_HANDOFF_VERSION  1
#define SONDE_HANDOFF_LIMIT    0x40000000ull  /* everything handed off lies below */
#define SONDE_NOTE_NAME        "Sonde"
#define SONDE_NOTE_EFI_ENTRY   0x53450001u  /* desc: uint64_t physical entry */
#define SONDE_CMDLINE_MAX      1024         /* including the NUL */
#define SONDE_MODNAME_MAX      64           /* including the NUL */

struct sonde_handoff {
	uint32_t sh_magic;           /* SONDE_EFI_MAGIC */
	uint32_t sh_version;         /* SONDE_HANDOFF_VERSION */
	uint64_t sh_cmdline;         /* NUL-terminated ASCII, or 0 */
	uint64_t sh_rsdp;            /* ACPI RSDP from the configuration table, or 0 */
	uint64_t sh_systab;          /* EFI_SYSTEM_TABLE (runtime services; unused so far) */
	uint64_t sh_memmap;          /* array of EFI_MEMORY_DESCRIPTORs */
	uint64_t sh_memmap_size;     /* bytes used in it */
	uint64_t sh_desc_size;       /* bytes per descriptor (may exceed the struct) */
	uint32_t sh_desc_version;
	uint32_t sh_nmod;            /* entries in sh_modlist */
	uint64_t sh_modlist;         /* array of struct sonde_handoff_module */
};

struct sonde_handoff_module {
	uint64_t shm_start;          /* first byte */
	uint64_t shm_size;           /* bytes */
	char shm_name[SONDE_MODNAME_MAX];  /* its path on the volume, as in modules.txt */
};

/* The UEFI memory descriptor, as the specification lays it out. */
struct sonde_efi_memdesc {
	uint32_t md_type;            /* EFI_MEMORY_TYPE, below */
	uint32_t md_pad;
	uint64_t md_phys;
	uint64_t md_virt;
	uint64_t md_pages;           /* 4 KiB pages */
	uint64_t md_attr;            /* EFI_MEMORY_RUNTIME = bit 63 */
};

/* EFI_MEMORY_TYPE values the kernel distinguishes (UEFI 2.x, section 7.2). */
enum sonde_efi_memtype {
	SONDE_EFI_RESERVED = 0, SONDE_EFI_LOADER_CODE, SONDE_EFI_LOADER_DATA,
	SONDE_EFI_BS_CODE, SONDE_EFI_BS_DATA, SONDE_EFI_RT_CODE, SONDE_EFI_RT_DATA,
	SONDE_EFI_CONVENTIONAL, SONDE_EFI_UNUSABLE, SONDE_EFI_ACPI_RECLAIM,
	SONDE_EFI_ACPI_NVS, SONDE_EFI_MMIO, SONDE_EFI_MMIO_PORT, SONDE_EFI_PAL_CODE,
	SONDE_EFI_PERSISTENT,
};
#define SONDE_EFI_MEMORY_RUNTIME  (1ull << 63)

#endif
