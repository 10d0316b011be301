/* Pins the DIF for: a global scalar store is stgs and the variable table lists it. */
BEGIN
{
	x = pid;
}
