/*
 * ASSERTION: profile tick probes are created on demand for rates with
 * unit suffixes (ms, us, hz) and plain numbers (Hz); each one fires and
 * reports provider "profile" and its own name.
 */
#pragma D option quiet

int a, b, c, d;

profile:::tick-2ms /!a/ { a = 1; @[probeprov, probename] = count(); }
profile:::tick-1000us /!b/ { b = 1; @[probeprov, probename] = count(); }
profile:::tick-200hz /!c/ { c = 1; @[probeprov, probename] = count(); }
profile:::tick-100 /!d/ { d = 1; @[probeprov, probename] = count(); }
profile:::tick-1ms /a && b && c && d/ { exit(0); }
