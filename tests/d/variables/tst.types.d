/*
 * ASSERTION: a declared global keeps its type: assigning truncates to
 * the declared width and signedness.
 */
#pragma D option quiet

char c;
uint8_t u8;
short sh;
uint16_t u16;
int i;
uint32_t u32;
int64_t i64;

BEGIN
{
	c = 0x1ff;
	u8 = -1;
	sh = 0x18000;
	u16 = -2;
	i = 0x100000005;
	u32 = -3;
	i64 = -4;
	printf("%d %d %d %d %d %u %d\n", c, u8, sh, u16, i, u32, i64);
	exit(0);
}
