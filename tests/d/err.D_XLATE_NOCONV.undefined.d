/*
 * Asserts D_XLATE_NOCONV: a member the translator does not define cannot be used.
 */
struct out { int a; int b; };
translator struct out < int x > { a = x; };
BEGIN
{
	trace(xlate<struct out>(1).b);
}
