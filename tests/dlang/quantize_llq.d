/* Pins the DIF for: quantize and llquantize take the value argument. */
BEGIN
{
	@q = quantize(timestamp);
	@ll = llquantize(arg0, 10, 0, 6, 20);
}
