/*
 * loader.h - Sonde's UEFI loader (BOOTX64.EFI): what its files share.
 *
 *   loader.c   efi_main: the steps in order, the hand-off page, the memory
 *              map, ExitBootServices and the jump; errors and status names
 *   volume.c   files on the loader's own volume: kernel.elf, cmdline.txt,
 *              modules.txt and the modules it lists
 *   elf.c      checking kernel.elf and loading its PT_LOAD segments
 *
 * Every step returns an EFI_STATUS; a failure has been reported on the
 * console (loader_fail) by the time it returns, and efi_main then frees
 * every page the loader took (loader_pages_free_all) and returns to the
 * firmware.  Nothing jumps into the kernel before every step succeeded.
 * Built with Debian's gnu-efi: the firmware's functions are called
 * directly (GNU_EFI_USE_MS_ABI), efi_main itself is SysV (crt0 calls it).
 */
#ifndef SONDE_BOOT_EFI_LOADER_H
#define SONDE_BOOT_EFI_LOADER_H

#include <efi.h>
#include <efilib.h>

#include "boot/efi/handoff.h"

#define LOADER_MAX_ALLOCS   64     /* page allocations tracked for cleanup */
#define LOADER_MAX_MODULES  16     /* the kernel keeps BOOT_MAX_MODULES = 16 */
#define LOADER_MAX_SEGMENTS 16     /* PT_LOAD segments in kernel.elf */

/* A file read into memory. */
struct blob {
	void *b_data;
	UINTN b_size;
};

/* The hand-off page: struct sonde_handoff and what it points to. */
struct handoff_page {
	struct sonde_handoff hp_handoff;
	char hp_cmdline[SONDE_CMDLINE_MAX];
	struct sonde_handoff_module hp_mods[LOADER_MAX_MODULES];
};

struct loader {
	EFI_HANDLE ld_image;
	EFI_SYSTEM_TABLE *ld_st;
	EFI_BOOT_SERVICES *ld_bs;
	EFI_FILE_HANDLE ld_root;              /* the loader's own volume */
	struct handoff_page *ld_page;
	uint64_t ld_entry;                    /* efi_entry, physical */
	EFI_MEMORY_DESCRIPTOR *ld_map;        /* buffer for the final memory map */
	UINTN ld_map_pages;
	struct {
		EFI_PHYSICAL_ADDRESS a_addr;
		UINTN a_pages;
	} ld_alloc[LOADER_MAX_ALLOCS];
	int ld_nalloc;
};

/* --- loader.c ------------------------------------------------------------ */

/*
 * loader_fail: print "sonde-efi: error: <message>: <EFI_STATUS name>" and
 * return status, so that a step can say  return loader_fail(s, L"...", ...).
 * The format is gnu-efi's Print format (%a an ASCII string, %s a CHAR16
 * one, %lx a 64-bit number).
 */
EFI_STATUS loader_fail(EFI_STATUS status, const CHAR16 *fmt, ...);

/* efi_status_name: the specification's name of a status ("EFI_NOT_FOUND"). */
const char *efi_status_name(EFI_STATUS status);

/*
 * loader_pages: AllocatePages(how, type, pages, *addr) that is remembered
 * for loader_pages_free_all.  how is AllocateAddress (at *addr exactly) or
 * AllocateMaxAddress (at or below *addr).  Returns the firmware's status;
 * reports nothing (the caller knows what the pages were for).
 */
EFI_STATUS loader_pages(struct loader *ld, EFI_ALLOCATE_TYPE how, EFI_MEMORY_TYPE type,
                        UINTN pages, EFI_PHYSICAL_ADDRESS *addr);
void loader_pages_free_all(struct loader *ld);

/* --- volume.c ------------------------------------------------------------ */

/* volume_open: the root directory of the volume the loader came from. */
EFI_STATUS volume_open(struct loader *ld);

/*
 * volume_read: read the file at path ("kernel.elf", "x/y.d": from the
 * volume's root, / or \ between names) into out.  With low set the data
 * goes into loader-data pages below SONDE_HANDOFF_LIMIT (for modules, which
 * the kernel keeps), else into pool memory the caller frees with
 * FreePool.  EFI_NOT_FOUND (not reported) if the file does not exist;
 * any other failure is reported.
 */
EFI_STATUS volume_read(struct loader *ld, const char *path, struct blob *out, BOOLEAN low);

/* cmdline_load: cmdline.txt, if present, into the hand-off page. */
EFI_STATUS cmdline_load(struct loader *ld);

/* modules_load: each file modules.txt lists (if present), into low pages. */
EFI_STATUS modules_load(struct loader *ld);

/* --- elf.c --------------------------------------------------------------- */

/*
 * elf_load: check the kernel image (ELF64, x86-64, executable; segments
 * inside the file and below SONDE_HANDOFF_LIMIT, not overlapping; the
 * Sonde entry note pointing into an executable segment), reserve the
 * physical pages of its PT_LOAD segments with AllocateAddress (never
 * memory the firmware uses), then copy and zero-fill them.  Sets
 * ld->ld_entry.  Reports every failure, naming the file.
 */
EFI_STATUS elf_load(struct loader *ld, const char *name, const struct blob *file);

#endif
