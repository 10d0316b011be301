/*
 * ASSERTION: a rate the cyclic facility cannot deliver (200 kHz: a 5 us
 * period, under the 10 us minimum) is refused, and dtrace fails.
 */
profile-200000
{
}
