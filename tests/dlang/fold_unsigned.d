/* Pins the DIF for: unsigned folding: -1U / 2 is 0x7fffffff. */
BEGIN
{
	trace(0xffffffffU / 2);
}
