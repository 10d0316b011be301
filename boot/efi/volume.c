/*
 * volume.c - the files the loader reads from its own volume.
 *
 * The volume is the one the firmware loaded BOOTX64.EFI from (the loaded
 * image's DeviceHandle, through the Simple File System protocol); every
 * path is taken from its root:
 *
 *   kernel.elf    the kernel (required)
 *   cmdline.txt   the kernel command line (optional; lines are joined
 *                 with spaces, at most SONDE_CMDLINE_MAX - 1 bytes)
 *   modules.txt   optional: one file per line (blank lines and lines
 *                 starting with # are skipped); each file is loaded as a
 *                 boot module named by its path as written, like GRUB's
 *                 "module2 /boot/files.tar files.tar"
 *
 * Tests: tests/e2e/test_efi.py
 */
#include "boot/efi/loader.h"

#define PAGE 4096ull

EFI_STATUS volume_open(struct loader *ld)
{
	EFI_LOADED_IMAGE *li;
	EFI_FILE_IO_INTERFACE *fs;
	EFI_STATUS s;

	s = ld->ld_bs->HandleProtocol(ld->ld_image, &LoadedImageProtocol, (void **)&li);
	if (s != EFI_SUCCESS)
		return loader_fail(s, L"cannot find the loader's own image");
	s = ld->ld_bs->HandleProtocol(li->DeviceHandle, &FileSystemProtocol, (void **)&fs);
	if (s != EFI_SUCCESS)
		return loader_fail(s, L"the loader's device has no file system");
	s = fs->OpenVolume(fs, &ld->ld_root);
	if (s != EFI_SUCCESS)
		return loader_fail(s, L"cannot open the loader's volume");
	return EFI_SUCCESS;
}

/* path_wide: "x/y.d" as L"\\x\\y.d"; FALSE if it does not fit or is not printable ASCII. */
static BOOLEAN path_wide(const char *path, CHAR16 *out, UINTN size)
{
	UINTN n = 0;

	out[n++] = L'\\';
	for (; *path != 0; path++) {
		if (n + 1 >= size || *path < 0x20 || *path > 0x7e)
			return FALSE;
		out[n++] = *path == '/' ? L'\\' : (CHAR16)*path;
	}
	out[n] = 0;
	return TRUE;
}

/* file_size: the size of an open file; directories are refused. */
static EFI_STATUS file_size(EFI_FILE_HANDLE fh, const char *path, UINTN *size)
{
	UINT64 buf[(SIZE_OF_EFI_FILE_INFO + 512) / 8];
	UINTN len = sizeof(buf);
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
	EFI_STATUS s = fh->GetInfo(fh, &GenericFileInfo, &len, info);

	if (s != EFI_SUCCESS)
		return loader_fail(s, L"%a: cannot read its size", path);
	if (info->Attribute & EFI_FILE_DIRECTORY)
		return loader_fail(EFI_NOT_FOUND, L"%a: is a directory", path);
	if (info->FileSize >= SONDE_HANDOFF_LIMIT)
		return loader_fail(EFI_BAD_BUFFER_SIZE, L"%a: too large (%ld bytes)", path, info->FileSize);
	*size = info->FileSize;
	return EFI_SUCCESS;
}

/* file_buffer: room for size bytes: pool memory, or loader-data pages below the limit. */
static EFI_STATUS file_buffer(struct loader *ld, const char *path, UINTN size, BOOLEAN low, void **out)
{
	EFI_PHYSICAL_ADDRESS at = SONDE_HANDOFF_LIMIT - 1;
	EFI_STATUS s;

	if (!low)
		s = ld->ld_bs->AllocatePool(EfiLoaderData, size + 1, out);
	else if ((s = loader_pages(ld, AllocateMaxAddress, EfiLoaderData, (size + PAGE) / PAGE, &at)) == EFI_SUCCESS)
		*out = (void *)(UINTN)at;
	if (s != EFI_SUCCESS)
		return loader_fail(s, L"%a: no memory for its %ld bytes", path, (UINT64)size);
	return EFI_SUCCESS;
}

static EFI_STATUS file_read_all(EFI_FILE_HANDLE fh, const char *path, char *buf, UINTN size)
{
	UINTN done = 0;

	while (done < size) {
		UINTN n = size - done;
		EFI_STATUS s = fh->Read(fh, &n, buf + done);
		if (s != EFI_SUCCESS)
			return loader_fail(s, L"%a: read error", path);
		if (n == 0)
			return loader_fail(EFI_END_OF_FILE, L"%a: shorter than its size", path);
		done += n;
	}
	return EFI_SUCCESS;
}

/* file_open: open path for reading and get its size; EFI_NOT_FOUND unreported. */
static EFI_STATUS file_open(struct loader *ld, const char *path, EFI_FILE_HANDLE *fh, UINTN *size)
{
	CHAR16 wide[256];
	EFI_STATUS s;

	if (!path_wide(path, wide, sizeof(wide) / sizeof(wide[0])))
		return loader_fail(EFI_INVALID_PARAMETER, L"%a: not a usable file name", path);
	s = ld->ld_root->Open(ld->ld_root, fh, wide, EFI_FILE_MODE_READ, 0);
	if (s == EFI_NOT_FOUND)
		return s;
	if (s != EFI_SUCCESS)
		return loader_fail(s, L"%a: cannot open", path);
	if ((s = file_size(*fh, path, size)) != EFI_SUCCESS)
		(*fh)->Close(*fh);
	return s;
}

EFI_STATUS volume_read(struct loader *ld, const char *path, struct blob *out, BOOLEAN low)
{
	EFI_FILE_HANDLE fh;
	EFI_STATUS s;

	if ((s = file_open(ld, path, &fh, &out->b_size)) != EFI_SUCCESS)
		return s;
	out->b_data = NULL;
	if ((s = file_buffer(ld, path, out->b_size, low, &out->b_data)) == EFI_SUCCESS &&
	    (s = file_read_all(fh, path, out->b_data, out->b_size)) == EFI_SUCCESS)
		((char *)out->b_data)[out->b_size] = 0;    /* text files are read as C strings */
	fh->Close(fh);
	if (s != EFI_SUCCESS && !low && out->b_data != NULL)
		ld->ld_bs->FreePool(out->b_data);
	return s;
}

EFI_STATUS volume_read_head(struct loader *ld, const char *path, struct blob *head, UINT64 *size)
{
	EFI_FILE_HANDLE fh;
	UINTN n;
	EFI_STATUS s;

	if ((s = file_open(ld, path, &fh, &n)) != EFI_SUCCESS)
		return s;
	*size = n;
	head->b_size = n < head->b_size ? n : head->b_size;
	s = file_read_all(fh, path, head->b_data, head->b_size);
	fh->Close(fh);
	return s;
}

/* --- cmdline.txt --------------------------------------------------------- */

EFI_STATUS cmdline_load(struct loader *ld)
{
	char *dst = ld->ld_page->hp_cmdline;
	struct blob f;
	UINTN n = 0;
	EFI_STATUS s = volume_read(ld, "cmdline.txt", &f, FALSE);

	if (s == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (s != EFI_SUCCESS)
		return s;
	for (const char *p = f.b_data; p < (const char *)f.b_data + f.b_size && s == EFI_SUCCESS; p++) {
		char c = (*p == '\n' || *p == '\r' || *p == '\t') ? ' ' : *p;
		if (c == ' ' && (n == 0 || dst[n - 1] == ' '))
			continue;                       /* no leading or doubled blanks */
		if (c < 0x20 || c > 0x7e)
			s = loader_fail(EFI_INVALID_PARAMETER, L"cmdline.txt: a byte %x that is not text", c);
		else if (n + 1 >= SONDE_CMDLINE_MAX)
			s = loader_fail(EFI_BAD_BUFFER_SIZE, L"cmdline.txt: longer than %d bytes",
			                SONDE_CMDLINE_MAX - 1);
		else
			dst[n++] = c;
	}
	while (n > 0 && dst[n - 1] == ' ')
		n--;
	dst[n] = 0;
	ld->ld_bs->FreePool(f.b_data);
	if (s == EFI_SUCCESS)
		Print(L"sonde-efi: command line: %a\n", dst);
	return s;
}

/* --- modules.txt --------------------------------------------------------- */

/* module_load: the file named by line into low pages, as the next module. */
static EFI_STATUS module_load(struct loader *ld, const char *line)
{
	struct sonde_handoff *h = &ld->ld_page->hp_handoff;
	struct sonde_handoff_module *m = &ld->ld_page->hp_mods[h->sh_nmod];
	struct blob f;
	EFI_STATUS s;

	if (h->sh_nmod == LOADER_MAX_MODULES)
		return loader_fail(EFI_OUT_OF_RESOURCES, L"modules.txt: more than %d modules", LOADER_MAX_MODULES);
	if (strlena((const CHAR8 *)line) >= SONDE_MODNAME_MAX)
		return loader_fail(EFI_INVALID_PARAMETER, L"modules.txt: %a: name longer than %d bytes",
		                   line, SONDE_MODNAME_MAX - 1);
	s = volume_read(ld, line, &f, TRUE);
	if (s == EFI_NOT_FOUND)
		return loader_fail(s, L"%a (listed in modules.txt): cannot open", line);
	if (s != EFI_SUCCESS)
		return s;
	m->shm_start = (UINTN)f.b_data;
	m->shm_size = f.b_size;
	CopyMem(m->shm_name, (void *)line, strlena((const CHAR8 *)line) + 1);
	h->sh_nmod++;
	Print(L"sonde-efi: module %a: %ld bytes at %lx\n", line, (UINT64)f.b_size, m->shm_start);
	return EFI_SUCCESS;
}

EFI_STATUS modules_load(struct loader *ld)
{
	struct blob f;
	EFI_STATUS s = volume_read(ld, "modules.txt", &f, FALSE);
	char *line, *end;

	if (s == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (s != EFI_SUCCESS)
		return s;
	for (line = f.b_data; s == EFI_SUCCESS && *line != 0; line = end) {
		for (end = line; *end != 0 && *end != '\n'; end++)
			;
		char *last = end;
		if (*end != 0)
			*end++ = 0;
		while (*line == ' ' || *line == '\t')
			line++;
		while (last > line && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\r'))
			*--last = 0;
		if (*line != 0 && *line != '#')
			s = module_load(ld, line);
	}
	ld->ld_bs->FreePool(f.b_data);
	return s;
}
