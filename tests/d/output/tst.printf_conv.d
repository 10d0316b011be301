/*
 * ASSERTION: printf conversions as libdtrace parses and prints them:
 * flags, widths and precisions in any order ("%-*d", "%?p" is 16 wide),
 * a negative * width left-justifies, %C and %S escape, %hd/%hx/%lx/%llu
 * take their own sizes, %d of an unsigned type prints as %u, %Y and %T
 * print nanoseconds since 1970 as dates (UTC), %% counts as a conversion,
 * %s of a char array stops at the array's end.
 */
#pragma D option quiet

char c4[4];

BEGIN
{
	printf("[%?p][%-?p]\n", (void *)0x1234, (void *)0x1234);
	printf("[%*d][%-*d][%*d][%.*d][%*.*d]\n", 5, 1, 5, 2, -4, 3, 3, 4, 6, 3, 5);
	printf("[%C][%C][%S]\n", 'a', '\n', "tab\there \"q\" \\ \001");
	printf("[%hd][%hx][%hu][%lx][%llu][%lld]\n", (short)-1, (short)-1,
	    (unsigned short)65535, (long)-1, 18446744073709551615ULL,
	    (long long)-2);
	printf("[%d][%i][%u][%x][%o][%X]\n", (uint8_t)255, (uint32_t)-1, (char)-1,
	    (short)-1, (uint16_t)8, 3054);
	printf("[%c][%5c][%-3c]\n", 65, 66, 67);
	printf("[%+d][% d][%+5d][%#x][%#o][%08.3d]\n", 5, 5, -5, 255, 8, 7);
	printf("[%Y]\n[%T]\n", (int64_t)0, (int64_t)0);
	printf("[%Y]\n[%T]\n", 1735689599000000000LL, 1735689599000000000LL);
	printf("[%30Y][%-30T]\n", 951782400000000000LL, 951782400000000000LL);
	printf("[%%][%s][%.2s][%8.3s]\n", "x", "abc", "abcdef");
	c4[0] = 'a'; c4[1] = 'b'; c4[2] = 'c'; c4[3] = 'd';
	printf("[%s][%-6s][%.2s]\n", c4, c4, c4);
	exit(0);
}
