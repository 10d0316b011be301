/*
 * ASSERTION: the profile provider makes no probe faster than DTrace's
 * limit of 200 us (5000 Hz), so tick-199us matches nothing.
 */
tick-199us
{
	exit(0);
}
