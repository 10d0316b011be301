/*
 * ASSERTION: += keeps a sum: not for strings.
 */
BEGIN
{
	bag->s += "x";
}
