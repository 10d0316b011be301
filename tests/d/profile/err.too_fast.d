/*
 * ASSERTION: a rate above the profile provider's limit (200 kHz: a 5 us
 * period, under DTrace's 200 us minimum) has no probe, as in DTrace: the
 * description matches nothing and dtrace fails.
 */
profile-200000
{
}
