/*
 * ASSERTION: unsigned keys of every size print their full unsigned value:
 * 200 (uint8), 60000 (uint16), 4000000000 (uint32, printed by " %8d" as
 * the signed -294967296), 18446744073709551615 (uint64, " %16lld": -1).
 */
#pragma D option quiet

BEGIN
{
	@[(uint8_t)200, (uint16_t)60000, (uint32_t)4000000000,
	    (uint64_t)0xffffffffffffffff] = count();
	exit(0);
}
