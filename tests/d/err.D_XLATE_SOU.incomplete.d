/*
 * Asserts D_XLATE_SOU: a translator to a struct only declared, not defined,
 * is refused with DTrace's words ("incomplete struct/union/enum").
 */
struct later;
translator struct later < int x > { a = x; };
BEGIN
{
	trace(1);
}
