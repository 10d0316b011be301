/*
 * Asserts D_OP_VFPTR: ++ on a void pointer (an operand of unknown size).
 */
BEGIN
{
	p = (void *)0;
	p++;
}
