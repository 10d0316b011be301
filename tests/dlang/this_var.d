/* Pins the DIF for: clause-locals use ldls/stls. */
BEGIN
{
	this->x = pid * 2;
	trace(this->x);
}
