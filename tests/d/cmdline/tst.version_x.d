/*
 * ASSERTION: -x version= binds the program too; a function introduced in
 * that very version (inet_ntoa, 1.5) is visible, and __SUNW_D_VERSION (-C)
 * is the version bound, in DTrace's numbering (1.5: 0x01005000).
 * @@options: -C -q -x version=1.5
 */
BEGIN
{
	ip = (ipaddr_t *)alloca(sizeof(ipaddr_t));
	*ip = htonl(0x7f000001);          /* 127.0.0.1 in network order on either machine */
	printf("%s %x\n", inet_ntoa(ip), __SUNW_D_VERSION);
	exit(0);
}
