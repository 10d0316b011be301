/* Pins the DIF for: a string constant is a sets from the string table. */
BEGIN
{
	trace("hello");
}
