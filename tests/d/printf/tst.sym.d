/*
 * ASSERTION: %a of an address that is no kernel symbol prints it as
 * 0x-prefixed hexadecimal (dtrace_addr2str's fallback); widths apply to
 * the resulting text.
 */
#pragma D option quiet

BEGIN
{
	printf("%a\n", 0);
	printf("%a\n", 0x10);
	printf("[%8a] [%-8a]\n", 0x20, 0x20);
	exit(0);
}
