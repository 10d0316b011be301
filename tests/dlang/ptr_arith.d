/* Pins the DIF for: pointer + int scales by the element size. */
long *p;
BEGIN
{
	trace(*(p + 2));
}
