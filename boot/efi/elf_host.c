/*
 * elf_host.c - run the loader's ELF checks (elf.c) on the host.
 *
 *   elf_host [-r ADDR] FILE...
 *
 * Builds with the gnu-efi headers but without the firmware: this file
 * stands in for the few services elf.c uses, and calls it as loader.c does
 * (elf_reserve_early on the first 4 KiB, then elf_load on the whole file).  AllocatePages(AllocateAddress)
 * becomes an mmap at exactly that address (MAP_FIXED_NOREPLACE), so the
 * segments are really copied to their physical addresses and checked byte
 * for byte against the file afterwards; -r ADDR makes the "firmware" refuse
 * any range containing ADDR (EFI_NOT_FOUND), as OVMF does for memory it
 * uses.  For each FILE it prints the loader's messages, then
 * "status: <EFI status name>"; it exits 0 if every file loaded.
 * tests/e2e/test_efi.py builds it and feeds it corrupt kernels.
 *
 * Tests: tests/e2e/test_efi.py
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "boot/efi/loader.h"

static uint64_t refuse_at = ~0ull;

/* --- stand-ins for gnu-efi and loader.c ---------------------------------- */

/* vformat: the subset of gnu-efi's Print format elf.c uses: %a %s %d %x %lx %ld. */
static void vformat(const CHAR16 *fmt, va_list ap)
{
	for (; *fmt != 0; fmt++) {
		if (*fmt != '%') {
			putchar((char)*fmt);
			continue;
		}
		int is_long = fmt[1] == 'l';
		fmt += is_long ? 2 : 1;
		switch (*fmt) {
		case 'a': fputs(va_arg(ap, const char *), stdout); break;
		case 's': for (const CHAR16 *w = va_arg(ap, const CHAR16 *); *w; w++) putchar((char)*w); break;
		case 'd': printf("%ld", is_long ? va_arg(ap, long) : (long)va_arg(ap, int)); break;
		case 'x': printf("%lx", is_long ? va_arg(ap, unsigned long) : (unsigned long)va_arg(ap, unsigned)); break;
		default: putchar('?'); break;
		}
	}
}

UINTN Print(IN CONST CHAR16 *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(fmt, ap);
	va_end(ap);
	return 0;
}

VOID CopyMem(IN VOID *dst, IN CONST VOID *src, IN UINTN len) { memmove(dst, src, len); }
VOID SetMem(IN VOID *buf, IN UINTN size, IN UINT8 value) { memset(buf, value, size); }
INTN CompareMem(IN CONST VOID *a, IN CONST VOID *b, IN UINTN len) { return memcmp(a, b, len); }

const char *efi_status_name(EFI_STATUS s)
{
	switch (s) {
	case EFI_SUCCESS: return "EFI_SUCCESS";
	case EFI_LOAD_ERROR: return "EFI_LOAD_ERROR";
	case EFI_NOT_FOUND: return "EFI_NOT_FOUND";
	case EFI_OUT_OF_RESOURCES: return "EFI_OUT_OF_RESOURCES";
	default: return "another EFI status";
	}
}

EFI_STATUS loader_fail(EFI_STATUS status, const CHAR16 *fmt, ...)
{
	va_list ap;

	printf("sonde-efi: error: ");
	va_start(ap, fmt);
	vformat(fmt, ap);
	va_end(ap);
	printf(": %s\n", efi_status_name(status));
	return status;
}

EFI_STATUS loader_pages(struct loader *ld, EFI_ALLOCATE_TYPE how, EFI_MEMORY_TYPE type,
                        UINTN pages, EFI_PHYSICAL_ADDRESS *addr)
{
	uint64_t len = pages * 4096;
	void *p;

	(void)type;
	if (how != AllocateAddress || ld->ld_nalloc == LOADER_MAX_ALLOCS || len > (64u << 20))
		return EFI_OUT_OF_RESOURCES;    /* the stand-in firmware's RAM: 64 MiB */
	if (refuse_at - *addr < len)
		return EFI_NOT_FOUND;
	p = mmap((void *)*addr, len, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return EFI_NOT_FOUND;
	if (p != (void *)*addr) {                /* an old kernel ignoring the flag */
		munmap(p, len);
		return EFI_NOT_FOUND;
	}
	ld->ld_alloc[ld->ld_nalloc].a_addr = *addr;
	ld->ld_alloc[ld->ld_nalloc].a_pages = pages;
	ld->ld_nalloc++;
	return EFI_SUCCESS;
}

/* --- the harness --------------------------------------------------------- */

static int read_file(const char *path, struct blob *b)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		return -1;
	b->b_data = malloc(n + 1);
	b->b_size = n;
	if (b->b_data == NULL || fread(b->b_data, 1, n, f) != (size_t)n)
		return -1;
	fclose(f);
	return 0;
}

/* segments_match: every PT_LOAD segment is in memory as in the file, then zeros. */
static int segments_match(const struct blob *b)
{
	const unsigned char *f = b->b_data;
	uint64_t phoff, off, pa, filesz, memsz;
	uint32_t type;
	uint16_t phnum;

	memcpy(&phoff, f + 32, 8);
	memcpy(&phnum, f + 56, 2);
	for (int i = 0; i < phnum; i++) {
		const unsigned char *ph = f + phoff + 56 * i;
		memcpy(&type, ph, 4);
		if (type != 1)
			continue;
		memcpy(&off, ph + 8, 8);
		memcpy(&pa, ph + 24, 8);
		memcpy(&filesz, ph + 32, 8);
		memcpy(&memsz, ph + 40, 8);
		if (memsz == 0)
			continue;                /* elf.c skips these */
		if (memcmp((void *)pa, f + off, filesz) != 0)
			return 0;
		for (uint64_t j = filesz; j < memsz; j++)
			if (((unsigned char *)pa)[j] != 0)
				return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	static struct loader ld;
	int failures = 0, i = 1;

	if (argc > 2 && strcmp(argv[1], "-r") == 0) {
		refuse_at = strtoull(argv[2], NULL, 0);
		i = 3;
	}
	for (; i < argc; i++) {
		struct blob b;
		EFI_STATUS s;
		printf("== %s\n", argv[i]);
		if (read_file(argv[i], &b) < 0) {
			printf("cannot read %s\n", argv[i]);
			return 2;
		}
		struct blob head = { b.b_data, b.b_size < 4096 ? b.b_size : 4096 };  /* as loader.c */
		s = elf_reserve_early(&ld, "kernel.elf", &head, b.b_size);
		if (s == EFI_SUCCESS)
			s = elf_load(&ld, "kernel.elf", &b);
		if (s == EFI_SUCCESS && !segments_match(&b))
			printf("segments not loaded as in the file\n"), s = EFI_LOAD_ERROR;
		printf("\nstatus: %s\n", efi_status_name(s));
		failures += s != EFI_SUCCESS;
		while (ld.ld_nalloc > 0) {
			ld.ld_nalloc--;
			munmap((void *)ld.ld_alloc[ld.ld_nalloc].a_addr, ld.ld_alloc[ld.ld_nalloc].a_pages * 4096);
		}
		free(b.b_data);
	}
	return failures != 0;
}
