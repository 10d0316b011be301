/*
 * rtc.c - the PC's real-time clock (the MC146818 in the CMOS), read once.
 *
 * arch_rtc_seconds() reads the date and time the RTC keeps (the host's
 * clock, under QEMU) and turns it into seconds since 1970-01-01 UTC.  It
 * waits for the chip to finish any update in progress, reads every field,
 * and reads again until two passes agree, so a second ticking over between
 * two fields cannot give a time an hour or a year off.  Fields are BCD or
 * binary and the hour 12- or 24-hour, as status register B says.  The RTC
 * is assumed to keep UTC (QEMU's default).
 *
 * Context: boot, thread context, interrupts on or off; it polls I/O ports
 * and takes up to a few milliseconds (one RTC update).
 *
 * Tests: tests/d/consumer (walltimestamp)
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "kernel/time.h"

#define RTC_INDEX  0x70
#define RTC_DATA   0x71
#define RTC_NMI_OFF 0x80             /* keep NMIs masked while we select registers */

enum { RTC_SEC = 0x00, RTC_MIN = 0x02, RTC_HOUR = 0x04, RTC_DAY = 0x07, RTC_MON = 0x08,
       RTC_YEAR = 0x09, RTC_STA = 0x0a, RTC_STB = 0x0b, RTC_CENTURY = 0x32 };

#define RTC_STA_UIP   0x80           /* update in progress */
#define RTC_STB_24H   0x02
#define RTC_STB_BIN   0x04
#define RTC_HOUR_PM   0x80

struct rtc_time { uint8_t sec, min, hour, day, mon, year, century; };

static uint8_t rtc_reg(uint8_t r)
{
	outb(RTC_INDEX, RTC_NMI_OFF | r);
	return inb(RTC_DATA);
}

static void rtc_read_once(struct rtc_time *t)
{
	for (int i = 0; i < 100000 && (rtc_reg(RTC_STA) & RTC_STA_UIP); i++)
		;
	t->sec = rtc_reg(RTC_SEC);
	t->min = rtc_reg(RTC_MIN);
	t->hour = rtc_reg(RTC_HOUR);
	t->day = rtc_reg(RTC_DAY);
	t->mon = rtc_reg(RTC_MON);
	t->year = rtc_reg(RTC_YEAR);
	t->century = rtc_reg(RTC_CENTURY);
}

static unsigned rtc_bin(uint8_t v, bool bcd)
{
	return bcd ? (v >> 4) * 10 + (v & 0x0f) : v;
}

uint64_t arch_rtc_seconds(void)
{
	struct rtc_time a, b;

	rtc_read_once(&b);
	for (int tries = 0; tries < 5; tries++) {
		a = b;
		rtc_read_once(&b);
		if (a.sec == b.sec && a.min == b.min && a.hour == b.hour && a.day == b.day &&
		    a.mon == b.mon && a.year == b.year && a.century == b.century)
			break;
	}
	uint8_t stb = rtc_reg(RTC_STB);
	bool bcd = !(stb & RTC_STB_BIN);
	unsigned hour = rtc_bin(b.hour & ~RTC_HOUR_PM, bcd);
	if (!(stb & RTC_STB_24H) && (b.hour & RTC_HOUR_PM))
		hour = (hour % 12) + 12;
	else if (!(stb & RTC_STB_24H) && hour == 12)
		hour = 0;
	unsigned century = b.century ? rtc_bin(b.century, bcd) : 20;
	unsigned mon = rtc_bin(b.mon, bcd), day = rtc_bin(b.day, bcd);
	if (mon < 1 || mon > 12 || day < 1 || day > 31)
		return 0;                            /* no RTC, or nonsense: no wall clock */
	int64_t year = century * 100 + rtc_bin(b.year, bcd);
	int64_t days = time_days_from_civil(year, mon, day);
	int64_t s = days * 86400 + hour * 3600 + rtc_bin(b.min, bcd) * 60 + rtc_bin(b.sec, bcd);
	return s > 0 ? (uint64_t)s : 0;
}
