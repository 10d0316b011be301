/*
 * panic.c - a kernel bug: say what, where, and stop with a failure status.
 *
 * Tests: tests/e2e/test_crash.py
 */
#include "arch/arch.h"
#include "kernel/console.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"


void panic(const char *fmt, ...)
{
	va_list ap;
	uint64_t pcs[16];
	int n;

	arch_irq_disable();
	console_panic_mode();
	kprintf("\npanic: ");
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	n = arch_backtrace(pcs, 16, 0);
	kprintf("backtrace:\n");
	for (int i = 0; i < n; i++) {
		char buf[96];
		kprintf("  %s\n", ksym_format(pcs[i], buf, sizeof(buf)));
	}
	arch_poweroff(POWEROFF_FAILURE);
}
