/*
 * machine.h - the constants arch/arch.h and kernel/mem.h take from the
 * machine, for sparc64 (UltraSPARC under qemu-system-sparc64 -M sun4u).
 *
 * Included by arch/arch.h only.  The address space (docs/sparc64.md):
 *
 *   0x0000000040000000  the kernel image, where OpenBIOS maps it: physical
 *                       0x400000 + (virtual - 0x40000000), so KERNEL_VMA is
 *                       0x3fc00000; 8 KiB pages, text executable and
 *                       read-only, data and bss writable (traps.S)
 *   0xfffff80000000000  the direct map of physical memory (DMAP_BASE): the
 *                       D-TLB miss handler computes its 4 MiB translations
 *                       arithmetically, there is no table
 *   0xfffffc0000000000  the kernel heap's large blocks (KHEAP_BASE): 8 KiB
 *                       pages from a two-level table (arch/sparc64/vm.c),
 *                       4 GiB
 *
 * UltraSPARC-II implements 44 virtual address bits: the hole
 * [0x0000080000000000, 0xfffff80000000000) is not addressable.  The MMU's
 * smallest page is 8 KiB, so Sonde's page on sparc64 is 8 KiB too.
 */
#ifndef SONDE_SPARC64_MACHINE_H
#define SONDE_SPARC64_MACHINE_H

#define ARCH_USER_BASE    0x10000UL             /* no user processes yet on sparc64 */
#define ARCH_USER_TOP     0x0000080000000000UL  /* the bottom of the VA hole */
#define ARCH_ELF_MACHINE  43                    /* EM_SPARCV9 */
#define ARCH_MACHINE_NAME "sparc64"
/* A disabled SDT site (kernel/sdt.h): one nop word. */
#define ARCH_SDT_NOP      "nop"
#define ARCH_SDT_SITE_LEN 4
#define ARCH_SDT_CALL_PATH 0              /* every armed site traps (ta 0x70) */
/* The pid provider's trap (trace/prov_pid.c): a planted site's word becomes `ta 0x71`. */
#define ARCH_PID_TRAP     { 0x91, 0xd0, 0x20, 0x71 }
#define ARCH_PID_TRAP_LEN 4
/* A USDT site's length (userland/libc/sparc64/usdt_isa.h): one word. */
#define ARCH_USDT_SITE_LEN 4
#define ARCH_LDOUBLE_FORMAT ARCH_LDOUBLE_QUAD   /* the V9 ABI's long double: IEEE quad */
/* __builtin_frame_address(0) is %fp unbiased: less this, the biased %fp arch_frame_step takes. */
#define ARCH_FRAME_BIAS   2047

/* Kernel thread stacks (kernel/thread.h): SPARC frames are at least 176 bytes. */
#define ARCH_THREAD_STACK_SIZE (48 * 1024)

/* kernel/mem.h's layout. */
#define ARCH_MEM_LAYOUT   1
#define PAGE_SIZE         8192UL
#define KERNEL_VMA        0x3fc00000UL
#define DMAP_BASE         0xfffff80000000000UL
#define KHEAP_BASE        0xfffffc0000000000UL
#define KHEAP_SIZE        (1UL << 32)           /* what vm.c's two-level table spans */
#define VM_LEAF_SPAN      (8UL << 20)           /* one leaf table: 1024 TTEs */

#endif
