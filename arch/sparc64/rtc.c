/*
 * rtc.c - sparc64: the wall clock, from the M48T59 of QEMU's sun4u.
 *
 * The chip is the board's NVRAM (OpenBIOS keeps its settings there) with a
 * clock in its last eight bytes: seconds, minutes, hours, day of the week,
 * date, month and year, in BCD, at NVRAM addresses 0x1ff9..0x1fff.  Its
 * 8 KiB are mapped whole in the ebus I/O space at 0x2000 (QEMU's
 * sysbus-m48t59: physical 0x1fe02002000 + address), reached through the
 * bypass ASI as the UART is.  The year register counts from 1968, QEMU's
 * base year for sun4u, modulo 100.  The clock keeps UTC (QEMU's default).
 *
 * arch_rtc_seconds() reads every field twice and again until two passes
 * agree, so that a second ticking over between two fields cannot give a
 * time a minute or a year off, and turns the date into seconds since
 * 1970-01-01.  A date that makes no sense (no chip) gives 0: no wall clock.
 *
 * Context: boot or thread context, interrupts on or off; a few dozen
 * device accesses.
 *
 * Tests: tests/d/consumer/tst.process.d on sparc64 (make sparc64-check-full)
 */
#include "arch/arch.h"
#include "arch/sparc64/sparc64.h"
#include "kernel/time.h"

#define NVRAM          0x1fe02002000UL  /* the ebus I/O space (0x1fe02000000) + 0x2000 */
#define RTC_SEC        0x1ff9           /* then min, hour, wday, date, month, year */
#define RTC_FIELDS     7
#define RTC_BASE_YEAR  1968

enum { F_SEC, F_MIN, F_HOUR, F_WDAY, F_DAY, F_MON, F_YEAR };

static uint8_t nvram_read(uint16_t addr)
{
	return phys_in8(NVRAM + addr);
}

static void rtc_read_once(uint8_t f[RTC_FIELDS])
{
	for (int i = 0; i < RTC_FIELDS; i++)
		f[i] = nvram_read((uint16_t)(RTC_SEC + i));
}

static unsigned bcd(uint8_t v)
{
	return (v >> 4) * 10 + (v & 0x0f);
}

uint64_t arch_rtc_seconds(void)
{
	uint8_t a[RTC_FIELDS], b[RTC_FIELDS];
	bool same = false;

	rtc_read_once(b);
	for (int tries = 0; tries < 5 && !same; tries++) {
		for (int i = 0; i < RTC_FIELDS; i++)
			a[i] = b[i];
		rtc_read_once(b);
		same = true;
		for (int i = 0; i < RTC_FIELDS; i++)
			same = same && a[i] == b[i];
	}
	unsigned mon = bcd(b[F_MON] & 0x1f), day = bcd(b[F_DAY] & 0x3f);
	unsigned hour = bcd(b[F_HOUR] & 0x3f), min = bcd(b[F_MIN] & 0x7f), sec = bcd(b[F_SEC] & 0x7f);
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 59)
		return 0;
	int64_t year = RTC_BASE_YEAR + bcd(b[F_YEAR]);
	int64_t s = time_days_from_civil(year, mon, day) * 86400 + hour * 3600 + min * 60 + sec;
	return s > 0 ? (uint64_t)s : 0;
}
