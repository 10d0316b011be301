/*
 * bootinfo.c - sparc64: from OpenBIOS to kmain, and what x86_64's loaders
 * hand over (struct boot_info), read from QEMU's fw_cfg instead.
 *
 * OpenBIOS (the firmware of QEMU's sun4u) enters _start (entry.S), which
 * takes the traps and the MMU over at once: the firmware maps the image
 * for instruction fetch only, so the kernel cannot use the firmware's
 * client interface (its arguments would live in memory it cannot write).
 * What a loader hands over on x86_64 comes instead from QEMU's fw_cfg
 * device, I/O port 0x510 (selector, 16-bit little-endian) and 0x511 (data),
 * on the ISA bridge: the size of RAM (key 0x03) and the command line (-append:
 * key 0x14 its size, 0x15 its bytes) and the -initrd module (0x0a its
 * physical address, 0x0b its size).
 *
 * The memory map is RAM less [0, 8 MiB): the firmware's data, the command
 * line QEMU writes at 0x3ff000 and the image's 4 MiB at 0x400000.  OpenBIOS
 * itself, at the top of RAM, is overwritten as pages are used: it is never
 * called again.
 *
 * Tests: make sparc64-check (boot to the self-tests), docs/sparc64.md
 */
#include "arch/arch.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/boot.h"
#include "kernel/klib.h"

#define FWCFG_CTL        0x1fe02000510UL
#define FWCFG_DATA       0x1fe02000511UL
#define FWCFG_RAM_SIZE   0x03
#define FWCFG_INITRD_ADDR 0x0a
#define FWCFG_INITRD_SIZE 0x0b
#define FWCFG_CMDLINE_SIZE 0x14
#define FWCFG_CMDLINE_DATA 0x15
#define LOW_RESERVED     0x800000UL

struct boot_info boot_info;

void kmain(uint32_t magic, uint32_t info);

static void fwcfg_select(uint16_t key)
{
	__asm__ volatile("stha %0, [%1] 0x1d" :: "r"(key), "r"(FWCFG_CTL) : "memory");   /* little-endian */
}

static uint64_t fwcfg_read_le(uint16_t key, int n)
{
	uint64_t v = 0;

	fwcfg_select(key);
	for (int i = 0; i < n; i++)
		v |= (uint64_t)phys_in8(FWCFG_DATA) << (8 * i);
	return v;
}

static void boot_memory(void)
{
	uint64_t ram = fwcfg_read_le(FWCFG_RAM_SIZE, 8);

	if (ram <= LOW_RESERVED)
		return;
	boot_info.bi_mem[0].bm_base = LOW_RESERVED;
	boot_info.bi_mem[0].bm_len = ram - LOW_RESERVED;
	boot_info.bi_mem[0].bm_type = BOOT_MEM_USABLE;
	boot_info.bi_nmem = 1;
}

static void boot_cmdline(void)
{
	uint64_t n = fwcfg_read_le(FWCFG_CMDLINE_SIZE, 4);

	if (n >= sizeof(boot_info.bi_cmdline))
		n = sizeof(boot_info.bi_cmdline) - 1;
	fwcfg_select(FWCFG_CMDLINE_DATA);
	for (uint64_t i = 0; i < n; i++)
		boot_info.bi_cmdline[i] = (char)phys_in8(FWCFG_DATA);
	boot_info.bi_cmdline[n] = 0;
}

/* boot_initrd: QEMU's -initrd (tools/dtrace's tar of files), as the one boot module. */
static void boot_initrd(void)
{
	uint64_t addr = fwcfg_read_le(FWCFG_INITRD_ADDR, 4), size = fwcfg_read_le(FWCFG_INITRD_SIZE, 4);

	if (size == 0)
		return;
	boot_info.bi_mod[0].bmod_start = addr;
	boot_info.bi_mod[0].bmod_end = addr + size;
	kstrlcpy(boot_info.bi_mod[0].bmod_name, "initrd", sizeof(boot_info.bi_mod[0].bmod_name));
	boot_info.bi_nmod = 1;
}

/* arch_boot_info: done already, by sparc64_main, before kmain. */
void arch_boot_info(uint32_t magic, uint32_t info_phys)
{
	(void)magic;
	(void)info_phys;
}

void sparc64_main(void)
{
	arch_console_init();
	for (const char *p = "\r\nsonde-boot\r\n"; *p; p++)       /* tools/sparc64_run.sh: the kernel's first line */
		arch_console_putc(*p);
	boot_info.bi_loader = "openbios";
	boot_memory();
	boot_cmdline();
	boot_initrd();
	kmain(0, 0);
	for (;;)
		;
}
