/* Pins the DIF for: printf has one DIFO per value argument and a format. */
BEGIN
{
	printf("%s[%d] %x\n", execname, pid, timestamp);
}
