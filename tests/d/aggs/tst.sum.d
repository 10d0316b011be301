/*
 * ASSERTION: sum() adds signed 64-bit values, negative ones included; a
 * sum may end at zero or below and sorts as a signed number.
 */
#pragma D option quiet

BEGIN
{
	@s["pos"] = sum(10);
	@s["pos"] = sum(32);
	@s["neg"] = sum(-5);
	@s["neg"] = sum(-7);
	@s["zero"] = sum(3);
	@s["zero"] = sum(-3);
	@s["mixed"] = sum(-100);
	@s["mixed"] = sum(101);
	exit(0);
}
