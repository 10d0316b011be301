/*
 * ASSERTION: #pragma D option takes DTrace's value syntax: sizes with
 * k/m suffixes, times with units or hz, yes/no for flags, a D version, and
 * options Sonde has no use for (bufresize, jstackframes); quiet=no after
 * quiet=yes turns it off again, so the default output appears.
 */
#pragma D option bufsize=64k
#pragma D option aggsize=1m
#pragma D option switchrate=10hz
#pragma D option aggrate=100ms
#pragma D option cleanrate=101hz
#pragma D option statusrate=1s
#pragma D option dynvarsize=0x100000
#pragma D option strsize=32
#pragma D option version=1.0
#pragma D option bufresize=auto
#pragma D option jstackframes=10
#pragma D option quiet=yes
#pragma D option quiet=no

BEGIN
{
	trace("abcdefghijklmnopqrstuvwxyz0123456789");
	exit(0);
}
