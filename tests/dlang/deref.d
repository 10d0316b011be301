/* Pins the DIF for: a pointer dereference is a typed load. */
int *p;
BEGIN
{
	trace(*p);
}
