/*
 * Asserts D_XLATE_MEMB: a translator may only define members of its output type.
 */
struct out { int a; };
translator struct out < int x > { b = x; };
BEGIN
{
	trace(1);
}
