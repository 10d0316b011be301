/*
 * ASSERTION: baggage holds integers and strings only.
 */
BEGIN
{
	bag->where = stack();
}
