/*
 * Asserts D_XLATE_REDECL: a translator cannot be declared twice.
 */
struct out { int a; };
translator struct out < int x > { a = x; };
translator struct out < int y > { a = y + 1; };
BEGIN
{
	trace(1);
}
