/*
 * Asserts D_OFFSETOF_TYPE: dtrace_id_t is a kernel integer typedef, not a
 * struct or union.
 */
BEGIN
{
	trace(offsetof (dtrace_id_t, x));
}
