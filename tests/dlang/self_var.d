/* Pins the DIF for: thread-locals use ldts/stts. */
BEGIN
{
	self->ts = timestamp;
	trace(timestamp - self->ts);
}
