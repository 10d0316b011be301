/*
 * arch.h - what portable code may ask of the machine.
 *
 * Portable code (kernel/, trace/, userland/) includes this header and never
 * names the architecture.  arch/<isa>/ implements it.
 */
#ifndef SONDE_ARCH_H
#define SONDE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit statuses seen by QEMU (isa-debug-exit writes v; QEMU exits (v << 1) | 1). */
#define POWEROFF_OK       0      /* QEMU exit 33 */
#define POWEROFF_FAILURE  -1     /* QEMU exit 3: crash, panic */

/*
 * arch_poweroff: stop the machine.  status >= 0 is a command's exit status
 * (0..111), reported to the host as QEMU exit 33 + 2 * status; POWEROFF_FAILURE
 * reports a crash (exit 3).  Never returns.
 */
void arch_poweroff(int status) __attribute__((noreturn));
void arch_reboot(void) __attribute__((noreturn));

/* Interrupt state of the local CPU. */
uint64_t arch_irq_save(void);                     /* disable, return previous state */
void arch_irq_restore(uint64_t flags);
void arch_irq_enable(void);
void arch_irq_disable(void);
bool arch_irq_enabled(void);
void arch_wait_for_interrupt(void);               /* enable interrupts and halt until one */
void arch_cpu_relax(void);                        /* in spin loops */
uint64_t arch_cycles(void);                       /* raw time stamp counter */
int arch_cpu_id(void);

/*
 * arch_backtrace: walk the frame-pointer chain from the caller (skip frames),
 * storing up to max return addresses in pcs; returns how many.  Any context;
 * stops at the first frame outside the current kernel stack.
 */
int arch_backtrace(uint64_t *pcs, int max, int skip);

/*
 * arch_safe_read: copy len bytes from src to dst; returns 0, or -1 if reading
 * src faulted (unmapped, non-canonical).  The kernel keeps running either
 * way.  Any context.
 */
int arch_safe_read(void *dst, const void *src, size_t len);

/* Inter-processor interrupts: what they ask of the target. */
enum arch_ipi { IPI_XCALL, IPI_RESCHED };
void arch_send_ipi(int cpu, enum arch_ipi kind);   /* cpu: index in cpus[] */

/*
 * arch_smp_start: find the other processors (ACPI) and start them; each
 * ends up in its idle loop.  Returns the number of CPUs running.  Boot, BSP.
 */
int arch_smp_start(void);

/* arch_fault_test: provoke a CPU exception on purpose (for the crash command). */
enum arch_fault { FAULT_PAGE, FAULT_DIVIDE, FAULT_UD, FAULT_GP, FAULT_BREAKPOINT, FAULT_STACK };
void arch_fault_test(enum arch_fault kind);

/* The console device (16550 UART on x86_64); kernel/console.c sits on top. */
void arch_console_init(void);                     /* polled output works after this */
void arch_console_putc(char c);                   /* polled; any context */
void arch_console_irq_on(void);                   /* receive interrupts call console_rx() */
void console_rx(int c);                           /* kernel/console.c: a received byte */
void arch_console_err_init(void);                 /* the error stream's device (COM2), polled */
void arch_console_err_putc(char c);               /* polled; any context */

/* Boot-time set-up of the machine, in the order kmain calls it. */
void arch_boot_info(uint32_t magic, uint32_t info_phys); /* fills boot_info */
void arch_cpu_init(void);                         /* descriptor tables, per-CPU base */
void arch_intr_init(void);                        /* interrupt controllers, timer calibration */

/* The timer behind the cyclic facility. */
void arch_timer_oneshot(uint64_t delta_ns);       /* interrupt after about delta_ns */
uint64_t arch_time_ns(void);                      /* ns since boot */
uint64_t arch_rtc_seconds(void);                  /* wall clock: s since 1970 (UTC), 0 if unknown; slow */

/* A new thread's initial stack: arch_switch() to the result starts entry(arg). */
uint64_t arch_thread_stack_init(void *stack_top, void *thread);
void arch_context_switch(uint64_t *save_sp, uint64_t new_sp);

#endif
