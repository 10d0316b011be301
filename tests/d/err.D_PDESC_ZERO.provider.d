/*
 * Asserts D_PDESC_ZERO: a description naming an unknown provider matches no probes.
 */
nosuchprov:::entry
{
	trace(1);
}
