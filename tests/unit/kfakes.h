/*
 * kfakes.h - host stand-ins for the few kernel services that the kernel
 * files under test call (spinlocks, panic, pages).  panic() turns into a
 * cmocka assertion failure, so a test can expect one.
 */
#ifndef SONDE_KFAKES_H
#define SONDE_KFAKES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "kernel/klib.h"
#include "kernel/lock.h"

void spin_lock(spinlock_t *l) { l->sl_locked = 1; }
void spin_unlock(spinlock_t *l) { l->sl_locked = 0; }

void panic(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	mock_assert(0, buf, __FILE__, __LINE__);
	abort();
}

#endif
