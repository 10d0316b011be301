/*
 * ASSERTION: ++ may not be applied to a bag-> member (+= 1 keeps a sum).
 */
BEGIN
{
	bag->n++;
}
