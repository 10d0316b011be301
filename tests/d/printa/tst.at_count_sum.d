/*
 * ASSERTION: %@d prints count() and sum() values; %@u, %@x and %@o print
 * them unsigned, in hex and in octal (a negative sum as its 64-bit two's
 * complement).
 */
#pragma D option quiet

BEGIN
{
	@c = count();
	@c = count();
	@s = sum(-2);
	@p = sum(255);
	printa("count %@d %@u %@x %@o\n", @c);
	printa("sum %@d %@u %@x\n", @s);
	printa("sum %@d %@u %@x %@X %@o\n", @p);
	exit(0);
}
