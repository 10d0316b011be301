/*
 * ASSERTION: a key packed as an integer may not be packed as a string.
 */
BEGIN
{
	bag->client = 1;
	bag->client = execname;
}
