/*
 * Asserts D_DECL_SIGNINT: there is no unsigned float (DTrace's attribute
 * check, before any D_DECL_COMBO).
 */
unsigned float f;
BEGIN
{
	trace(1);
}
