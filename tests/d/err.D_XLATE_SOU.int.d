/*
 * Asserts D_XLATE_SOU: a translator's output must be a struct or union.
 */
translator int < int x > { a = x; };
BEGIN
{
	trace(1);
}
