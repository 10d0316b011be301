/*
 * Asserts D_SYNTAX: a conversion with two precisions ("more than one '.'").
 */
BEGIN
{
	printf("%.1.2d", 1);
}
