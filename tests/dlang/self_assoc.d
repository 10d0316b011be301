/* Pins the DIF for: thread-local arrays use sttaa/ldtaa. */
BEGIN
{
	self->a[1] = 2;
	trace(self->a[1]);
}
