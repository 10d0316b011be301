/*
 * ASSERTION: inet_ntoa, inet_ntoa6, inet_ntop and link_ntop format addresses
 * built in alloca()'d scratch as DTrace's documentation says: a dotted quad;
 * RFC 1884 convention 2 in lower-case hex with one zero run as "::"; an
 * IPv4-mapped or -compatible address as the IPv4 address alone from
 * inet_ntoa6 but with its "::ffff:" or "::" prefix from inet_ntop; link
 * addresses as two hex digits a byte.  (The byte stores into scratch are
 * D's pointer rules: this test needs them as much as the subroutines.)
 */
/* @@options: -q */

BEGIN
{
	this->v4 = (uint8_t *)alloca(4);
	this->v4[0] = 192;
	this->v4[1] = 168;
	this->v4[2] = 1;
	this->v4[3] = 20;
	printf("%s\n", inet_ntoa((ipaddr_t *)this->v4));
	printf("%s\n", inet_ntop(AF_INET, (void *)this->v4));

	this->v6 = (uint8_t *)alloca(16);
	this->v6[0] = 0xfe; this->v6[1] = 0x80; this->v6[2] = 0; this->v6[3] = 0;
	this->v6[4] = 0; this->v6[5] = 0; this->v6[6] = 0; this->v6[7] = 0;
	this->v6[8] = 0x02; this->v6[9] = 0x14; this->v6[10] = 0x4f;
	this->v6[11] = 0xff; this->v6[12] = 0xfe; this->v6[13] = 0x0b;
	this->v6[14] = 0x76; this->v6[15] = 0xc8;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->v6));
	printf("%s\n", inet_ntop(AF_INET6, (void *)this->v6));

	/* ::ffff:127.0.0.1 */
	this->v6[0] = 0; this->v6[1] = 0; this->v6[8] = 0; this->v6[9] = 0;
	this->v6[10] = 0xff; this->v6[11] = 0xff; this->v6[12] = 127;
	this->v6[13] = 0; this->v6[14] = 0; this->v6[15] = 1;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->v6));
	printf("%s\n", inet_ntop(AF_INET6, (void *)this->v6));

	/* ::1 and :: */
	this->v6[10] = 0; this->v6[11] = 0; this->v6[12] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->v6));
	this->v6[15] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->v6));

	this->mac = (uint8_t *)alloca(6);
	this->mac[0] = 0x00; this->mac[1] = 0x14; this->mac[2] = 0x4f;
	this->mac[3] = 0x0b; this->mac[4] = 0x76; this->mac[5] = 0xc8;
	printf("%s\n", link_ntop(ARPHRD_ETHER, (void *)this->mac));
	exit(0);
}
