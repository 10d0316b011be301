/*
 * sparc64.h - the sparc64 machine half's own declarations: physical access
 * through the MMU-bypass ASI, the privileged registers, and what the files
 * of arch/sparc64/ share.  Included by arch/sparc64/ only.
 */
#ifndef SONDE_SPARC64_H
#define SONDE_SPARC64_H

#include <stdbool.h>
#include <stdint.h>

#define STACK_BIAS        2047

/* ASIs (UltraSPARC-II). */
#define ASI_PHYS_USE_EC   0x14   /* physical, cacheable */
#define ASI_PHYS_BYPASS_E 0x15   /* physical, non-cacheable, side effects: devices */

/* Devices of QEMU's sun4u (physical addresses). */
#define SUN4U_UART        0x1fe020003f8UL    /* 16550 on the ISA bridge */
#define SUN4U_UART2       0x1fe020002f8UL    /* the second one (COM2's port) */
#define SUN4U_POWER       0x1fe02007240UL    /* write 0x01000000: power off */

static inline uint8_t phys_in8(uint64_t pa)
{
	uint8_t v;
	__asm__ volatile("lduba [%1] 0x15, %0" : "=r"(v) : "r"(pa));
	return v;
}

static inline void phys_out8(uint64_t pa, uint8_t v)
{
	__asm__ volatile("stba %0, [%1] 0x15" :: "r"(v), "r"(pa) : "memory");
}

static inline void phys_out32(uint64_t pa, uint32_t v)
{
	__asm__ volatile("stwa %0, [%1] 0x15" :: "r"(v), "r"(pa) : "memory");
}

static inline uint64_t phys_ld64(uint64_t pa)
{
	uint64_t v;
	__asm__ volatile("ldxa [%1] 0x14, %0" : "=r"(v) : "r"(pa));
	return v;
}

#define rdpr(reg) ({ uint64_t v__; __asm__ volatile("rdpr %%" #reg ", %0" : "=r"(v__)); v__; })
#define wrpr(reg, v) __asm__ volatile("wrpr %0, 0, %%" #reg :: "r"((uint64_t)(v)) : "memory")

/* bootinfo.c */
void sparc64_main(void) __attribute__((noreturn));

/* trap.c / traps.S */
void sparc64_traps_init(void);           /* our trap table in %tba; MMU set up */
extern char sparc64_trap_table[];

/* The saved state of one trap (traps.S builds it on the kernel stack). */
struct trap_frame {
	uint64_t tf_g[8];            /* %g0..%g7 */
	uint64_t tf_o[8];            /* %o0..%o7 of the trapped window (its %i after save) */
	uint64_t tf_tstate, tf_tpc, tf_tnpc, tf_y;
	uint64_t tf_tt;              /* trap type */
	uint64_t tf_sfar;            /* D-MMU fault address, if any */
	uint64_t tf_pad[2];
};
#define TSTATE_PRIV 0x400UL          /* in tf_tstate: the trap came from kernel mode */

void sparc64_trap(struct trap_frame *tf);   /* C half of every non-window trap */

/*
 * What the TLB-miss handlers and the traps from user mode read at any
 * trap level: one page, locked in the D-TLB (traps.S), so no access to it
 * ever misses.  vm.c owns the kernel's half, vm_user.c the user's.  The
 * offsets are traps.S's MP_* constants.
 */
#define MMU_DIR_SLOTS   512          /* the heap's directory: 4 GiB of 8 MiB leaves */
#define MMU_WBUF_MAX    8            /* user windows whose spill faulted, not yet copied out */
struct sparc64_wbuf {
	uint64_t wb_sp;              /* the window's %sp (biased): where it belongs */
	uint64_t wb_regs[16];        /* %l0..%l7, %i0..%i7 */
};
struct sparc64_mmu_page {
	uint64_t mp_ram_top;                    /* 0: the direct map's end */
	uint64_t mp_kheap_dir[MMU_DIR_SLOTS];   /* 8: leaf pages (physical), or 0 */
	uint64_t mp_user_root;                  /* 4104: the loaded space's top table (physical), or 0 */
	uint64_t mp_user_ctx;                   /* 4112: its MMU context (0: none loaded) */
	uint64_t mp_kstack;                     /* 4120: the running user thread's kernel stack top */
	uint64_t mp_wbuf_n;                     /* 4128: windows in mp_wbuf */
	struct sparc64_wbuf mp_wbuf[MMU_WBUF_MAX];   /* 4136 */
	struct sparc64_nested {                 /* 5224: a fatal trap inside a trap handler (traps.S) */
		uint64_t mn_tt, mn_addr;        /* its type, its page (the tag access) */
		uint64_t mn_tt_below, mn_tpc_below;   /* the trap it interrupted (a spill, a fill), where */
		uint64_t mn_fp, mn_ret;         /* that window's %i6 (biased) and %i7 */
	} mp_nested;
};
extern struct sparc64_mmu_page sparc64_mmu_page;

/* vm.c */
void sparc64_mmu_init(void);
uint64_t sparc64_ram_end(void);

/* vm_user.c: the pid provider's out-of-line page of the process (pid_isa.c) */
struct arch_as;
void *sparc64_user_scratch(struct arch_as *as, uint64_t va, bool create);

/* timer.c */
void sparc64_tick_intr(struct trap_frame *tf);
void sparc64_uart_poll(void);

#endif
