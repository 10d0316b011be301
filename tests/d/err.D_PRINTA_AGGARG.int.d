/*
 * Asserts D_PRINTA_AGGARG: printa() prints aggregations only.
 */
BEGIN
{
	printa(1);
}
