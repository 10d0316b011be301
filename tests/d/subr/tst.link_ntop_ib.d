/*
 * ASSERTION: link_ntop() takes the Guide's ARPHRD_INFINIBAND (32, the
 * same as ARPHRD_IB): a twenty-byte InfiniBand address as twenty
 * colon-separated pairs of lower-case hex digits.
 */
#pragma D option quiet

BEGIN
{
	this->ib = (uint8_t *)alloca(20);
	this->ib[0] = 0x80;
	this->ib[3] = 0x48;
	this->ib[12] = 0x0a;
	this->ib[19] = 0xff;
	printf("%d %d\n", ARPHRD_INFINIBAND, ARPHRD_IB);
	printf("%s\n", link_ntop(ARPHRD_INFINIBAND, (void *)this->ib));
	exit(0);
}
