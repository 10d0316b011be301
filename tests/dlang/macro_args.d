/* dtc: 7 hello */
/* Pins the DIF for: $1 is an integer, $$2 a string. */
BEGIN
{
	trace($1 + 1);
	trace($$2);
}
