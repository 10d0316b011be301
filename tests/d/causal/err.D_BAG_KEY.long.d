/*
 * ASSERTION: a baggage key is at most 32 characters.
 */
BEGIN
{
	bag->abcdefghijabcdefghijabcdefghijabc = 1;
}
