/*
 * loader.c - Sonde's UEFI loader: from the firmware to efi_entry.
 *
 * efi_main takes these steps, each of which reports its own failure:
 *
 *   1. volume_open     the volume BOOTX64.EFI came from
 *   2. handoff_alloc   one page below 1 GiB for struct sonde_handoff, the
 *                      command line and the module list
 *   3. kernel_load     kernel.elf: its headers read and checked and its
 *                      pages reserved, then the whole file read, checked
 *                      again and its segments loaded at their physical
 *                      addresses (elf.c)
 *   4. cmdline_load,   cmdline.txt and modules.txt, both optional (volume.c)
 *      modules_load
 *   5. acpi_find       the RSDP from the configuration table
 *   6. boot_services_exit  GetMemoryMap + ExitBootServices, again with a
 *                      fresh map while the firmware says the key is stale
 *   7. kernel_enter    jump to efi_entry: eax = SONDE_EFI_MAGIC, ebx = the
 *                      hand-off (the contract is in handoff.h)
 *
 * Steps 1-5 free what they took when anything fails, print the UEFI status
 * and return to the firmware after a pause.  Step 6 is the point of no
 * return only once ExitBootServices succeeds; step 7 cannot fail.
 *
 * Tests: tests/e2e/test_efi.py
 */
#include "boot/efi/loader.h"

#define PAGE              4096ull
#define FAIL_PAUSE_100NS  (10 * 10000000ull)    /* 10 s to read an error */
#define EXIT_TRIES        8

/* --- errors -------------------------------------------------------------- */

static const char *const status_names[] = {
	[0] = "EFI_SUCCESS", [1] = "EFI_LOAD_ERROR", [2] = "EFI_INVALID_PARAMETER",
	[3] = "EFI_UNSUPPORTED", [4] = "EFI_BAD_BUFFER_SIZE", [5] = "EFI_BUFFER_TOO_SMALL",
	[6] = "EFI_NOT_READY", [7] = "EFI_DEVICE_ERROR", [8] = "EFI_WRITE_PROTECTED",
	[9] = "EFI_OUT_OF_RESOURCES", [10] = "EFI_VOLUME_CORRUPTED", [11] = "EFI_VOLUME_FULL",
	[12] = "EFI_NO_MEDIA", [13] = "EFI_MEDIA_CHANGED", [14] = "EFI_NOT_FOUND",
	[15] = "EFI_ACCESS_DENIED", [16] = "EFI_NO_RESPONSE", [17] = "EFI_NO_MAPPING",
	[18] = "EFI_TIMEOUT", [19] = "EFI_NOT_STARTED", [20] = "EFI_ALREADY_STARTED",
	[21] = "EFI_ABORTED", [22] = "EFI_ICMP_ERROR", [23] = "EFI_TFTP_ERROR",
	[24] = "EFI_PROTOCOL_ERROR", [25] = "EFI_INCOMPATIBLE_VERSION",
	[26] = "EFI_SECURITY_VIOLATION", [27] = "EFI_CRC_ERROR", [28] = "EFI_END_OF_MEDIA",
	[31] = "EFI_END_OF_FILE", [32] = "EFI_INVALID_LANGUAGE", [33] = "EFI_COMPROMISED_DATA",
};

const char *efi_status_name(EFI_STATUS status)
{
	UINTN code = status & ~EFI_ERROR_MASK;

	if ((status == EFI_SUCCESS || EFI_ERROR(status)) &&
	    code < sizeof(status_names) / sizeof(status_names[0]) && status_names[code] != NULL)
		return status_names[code];
	return EFI_ERROR(status) ? "an unknown EFI error" : "an EFI warning";
}

EFI_STATUS loader_fail(EFI_STATUS status, const CHAR16 *fmt, ...)
{
	va_list ap;

	Print(L"sonde-efi: error: ");
	va_start(ap, fmt);
	VPrint(fmt, ap);
	va_end(ap);
	Print(L": %a\n", efi_status_name(status));
	return status;
}

/* fail_pause: give a person time to read the error: a key press, or 10 s. */
static void fail_pause(struct loader *ld)
{
	EFI_EVENT events[2], timer;
	EFI_INPUT_KEY key;
	UINTN which;

	if (ld->ld_bs->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer) != EFI_SUCCESS)
		return;
	Print(L"sonde-efi: press a key to return to the firmware (or wait 10 s)\n");
	if (ld->ld_bs->SetTimer(timer, TimerRelative, FAIL_PAUSE_100NS) == EFI_SUCCESS) {
		events[0] = ld->ld_st->ConIn->WaitForKey;
		events[1] = timer;
		if (ld->ld_bs->WaitForEvent(2, events, &which) == EFI_SUCCESS && which == 0)
			ld->ld_st->ConIn->ReadKeyStroke(ld->ld_st->ConIn, &key);
	}
	ld->ld_bs->CloseEvent(timer);
}

/* --- pages --------------------------------------------------------------- */

EFI_STATUS loader_pages(struct loader *ld, EFI_ALLOCATE_TYPE how, EFI_MEMORY_TYPE type,
                        UINTN pages, EFI_PHYSICAL_ADDRESS *addr)
{
	EFI_STATUS s;

	if (ld->ld_nalloc == LOADER_MAX_ALLOCS)
		return EFI_OUT_OF_RESOURCES;
	s = ld->ld_bs->AllocatePages(how, type, pages, addr);
	if (s == EFI_SUCCESS) {
		ld->ld_alloc[ld->ld_nalloc].a_addr = *addr;
		ld->ld_alloc[ld->ld_nalloc].a_pages = pages;
		ld->ld_nalloc++;
	}
	return s;
}

void loader_pages_free_all(struct loader *ld)
{
	while (ld->ld_nalloc > 0) {
		ld->ld_nalloc--;
		ld->ld_bs->FreePages(ld->ld_alloc[ld->ld_nalloc].a_addr, ld->ld_alloc[ld->ld_nalloc].a_pages);
	}
}

/* --- the steps ----------------------------------------------------------- */

static EFI_STATUS handoff_alloc(struct loader *ld)
{
	EFI_PHYSICAL_ADDRESS at = SONDE_HANDOFF_LIMIT - 1;
	UINTN pages = (sizeof(struct handoff_page) + PAGE - 1) / PAGE;
	EFI_STATUS s = loader_pages(ld, AllocateMaxAddress, EfiLoaderData, pages, &at);

	if (s != EFI_SUCCESS)
		return loader_fail(s, L"no memory below 1 GiB for the hand-off");
	ld->ld_page = (struct handoff_page *)(UINTN)at;
	SetMem(ld->ld_page, pages * PAGE, 0);
	ld->ld_page->hp_handoff.sh_magic = SONDE_EFI_MAGIC;
	ld->ld_page->hp_handoff.sh_version = SONDE_HANDOFF_VERSION;
	ld->ld_page->hp_handoff.sh_cmdline = (UINTN)ld->ld_page->hp_cmdline;
	ld->ld_page->hp_handoff.sh_modlist = (UINTN)ld->ld_page->hp_mods;
	ld->ld_page->hp_handoff.sh_systab = (UINTN)ld->ld_st;
	return EFI_SUCCESS;
}

/*
 * kernel_load: the headers first, to reserve the kernel's pages before the
 * file's buffer is allocated (elf_reserve_early), then the whole file.
 */
static EFI_STATUS kernel_load(struct loader *ld)
{
	UINT64 head_buf[4096 / 8], size;
	struct blob head = { head_buf, sizeof(head_buf) }, f;
	EFI_STATUS s = volume_read_head(ld, "kernel.elf", &head, &size);

	if (s == EFI_NOT_FOUND)
		return loader_fail(s, L"kernel.elf: not found at the root of the loader's volume");
	if (s != EFI_SUCCESS || (s = elf_reserve_early(ld, "kernel.elf", &head, size)) != EFI_SUCCESS ||
	    (s = volume_read(ld, "kernel.elf", &f, FALSE)) != EFI_SUCCESS)
		return s;
	s = elf_load(ld, "kernel.elf", &f);
	ld->ld_bs->FreePool(f.b_data);
	return s;
}

/* acpi_find: the ACPI 2.0 RSDP if the firmware has one, else the 1.0 one. */
static void acpi_find(struct loader *ld)
{
	EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;
	EFI_CONFIGURATION_TABLE *ct = ld->ld_st->ConfigurationTable;
	uint64_t rsdp = 0;

	for (UINTN i = 0; i < ld->ld_st->NumberOfTableEntries; i++) {
		if (CompareGuid(&ct[i].VendorGuid, &acpi20) == 0)
			rsdp = (UINTN)ct[i].VendorTable;
		else if (rsdp == 0 && CompareGuid(&ct[i].VendorGuid, &acpi10) == 0)
			rsdp = (UINTN)ct[i].VendorTable;
	}
	ld->ld_page->hp_handoff.sh_rsdp = rsdp;
	if (rsdp == 0)
		Print(L"sonde-efi: warning: no ACPI RSDP in the configuration table\n");
}

/*
 * memmap_alloc: a buffer below 1 GiB for the final memory map, big enough
 * for the map as it is now plus room for the descriptors that allocating
 * it (and anything the firmware does before ExitBootServices) adds.
 */
static EFI_STATUS memmap_alloc(struct loader *ld, UINTN need)
{
	EFI_PHYSICAL_ADDRESS at = SONDE_HANDOFF_LIMIT - 1;
	UINTN pages = (need + 64 * sizeof(EFI_MEMORY_DESCRIPTOR) + PAGE - 1) / PAGE + 1;
	EFI_STATUS s = loader_pages(ld, AllocateMaxAddress, EfiLoaderData, pages, &at);

	if (s != EFI_SUCCESS)
		return loader_fail(s, L"no memory below 1 GiB for the memory map");
	ld->ld_map = (EFI_MEMORY_DESCRIPTOR *)(UINTN)at;
	ld->ld_map_pages = pages;
	return EFI_SUCCESS;
}

static EFI_STATUS memmap_size(struct loader *ld, UINTN *need)
{
	UINTN key, dsize;
	UINT32 dver;
	EFI_STATUS s;

	*need = 0;
	s = ld->ld_bs->GetMemoryMap(need, NULL, &key, &dsize, &dver);
	if (s != EFI_BUFFER_TOO_SMALL)
		return loader_fail(s == EFI_SUCCESS ? EFI_DEVICE_ERROR : s, L"GetMemoryMap gave no size");
	return EFI_SUCCESS;
}

/*
 * boot_services_exit: the final memory map and ExitBootServices with its
 * key.  Allocating, or an event the firmware handles in between, changes
 * the map and makes the key stale (EFI_INVALID_PARAMETER): then fetch the
 * map again and retry.  Nothing here may print or allocate between the two
 * calls.  On success the firmware is gone: no more Print, no way back.
 */
static EFI_STATUS boot_services_exit(struct loader *ld)
{
	struct sonde_handoff *h = &ld->ld_page->hp_handoff;
	EFI_STATUS s = EFI_SUCCESS;

	for (int tries = 0; tries < EXIT_TRIES; tries++) {
		UINTN size = ld->ld_map_pages * PAGE, key, dsize;
		UINT32 dver;
		s = ld->ld_bs->GetMemoryMap(&size, ld->ld_map, &key, &dsize, &dver);
		if (s == EFI_BUFFER_TOO_SMALL) {        /* grew: a bigger buffer, then again */
			if ((s = memmap_alloc(ld, size)) != EFI_SUCCESS)
				return s;
			continue;
		}
		if (s != EFI_SUCCESS)
			return loader_fail(s, L"GetMemoryMap failed");
		s = ld->ld_bs->ExitBootServices(ld->ld_image, key);
		if (s == EFI_SUCCESS) {
			h->sh_memmap = (UINTN)ld->ld_map;
			h->sh_memmap_size = size;
			h->sh_desc_size = dsize;
			h->sh_desc_version = dver;
			return EFI_SUCCESS;
		}
		if (s != EFI_INVALID_PARAMETER)
			break;
	}
	return loader_fail(s, L"ExitBootServices failed %d times", EXIT_TRIES);
}

/* kernel_enter: the hand-off (handoff.h).  Never returns. */
static void __attribute__((noreturn)) kernel_enter(struct loader *ld)
{
	uint64_t entry = ld->ld_entry;
	uint32_t handoff = (uint32_t)(UINTN)&ld->ld_page->hp_handoff;

	__asm__ volatile("cli\n\tjmp *%0" : : "r"(entry), "a"(SONDE_EFI_MAGIC), "b"(handoff) : "memory");
	__builtin_unreachable();
}

static EFI_STATUS loader_run(struct loader *ld)
{
	UINTN need;
	EFI_STATUS s;

	if ((s = volume_open(ld)) != EFI_SUCCESS || (s = handoff_alloc(ld)) != EFI_SUCCESS ||
	    (s = kernel_load(ld)) != EFI_SUCCESS || (s = cmdline_load(ld)) != EFI_SUCCESS ||
	    (s = modules_load(ld)) != EFI_SUCCESS)
		return s;
	acpi_find(ld);
	if ((s = memmap_size(ld, &need)) != EFI_SUCCESS || (s = memmap_alloc(ld, need)) != EFI_SUCCESS)
		return s;
	Print(L"sonde-efi: starting the kernel\n");
	if ((s = boot_services_exit(ld)) != EFI_SUCCESS)
		return s;
	kernel_enter(ld);
}

/* Called by gnu-efi's crt0 (SysV ABI: no EFIAPI here). */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	static struct loader ld;
	EFI_STATUS s;

	InitializeLib(image, st);
	ld.ld_image = image;
	ld.ld_st = st;
	ld.ld_bs = st->BootServices;
	Print(L"sonde-efi: Sonde's UEFI loader\n");
	s = loader_run(&ld);
	loader_pages_free_all(&ld);
	Print(L"sonde-efi: boot failed (%a); returning to the firmware\n", efi_status_name(s));
	fail_pause(&ld);
	return s;
}
