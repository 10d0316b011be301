/*
 * Asserts D_SYNTAX: a conversion with two * widths ("has more than one '*'").
 */
BEGIN
{
	printf("%**d", 1, 2, 3);
}
