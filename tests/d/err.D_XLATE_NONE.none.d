/*
 * Asserts D_XLATE_NONE: xlate needs a translator for the input type.
 */
struct out { int a; };
BEGIN
{
	trace(xlate<struct out>(execname).a);
}
