/* Pins the DIF for: #pragma D option sets program options. */
#pragma D option quiet
#pragma D option bufsize=4m
#pragma D option strsize=64
BEGIN
{
	trace(execname);
}
