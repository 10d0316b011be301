/*
 * ASSERTION: exit(200) ends the run with status 200; statuses above 111
 * come back from the guest as 111 (the QEMU exit-code channel's cap,
 * see tools/dtrace), so 111 is expected here.
 * @@exit: 111
 */
#pragma D option quiet

BEGIN
{
	exit(200);
}
