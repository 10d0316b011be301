/*
 * Asserts D_PDESC_INVAL: a probe description has at most four fields.
 */
a:b:c:d:e
{
	trace(1);
}
