/*
 * ASSERTION: character constants are ints made of their bytes, first
 * byte most significant ('ab' is 0x6162, '\377' is 255), with C's
 * escapes (\n \t \0 \\ \' octal, hex); a string constant's size is its
 * length (up to an embedded NUL) plus the NUL; operators work at the
 * width and signedness C gives their operands (promotion of char and
 * short to int, unsigned comparisons, arithmetic and logical right
 * shifts, casts that truncate).
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", 'a', 'ab', 'abcd', '\377', sizeof ('a'));
	printf("%d %d %d %d %d %d %d\n", '\n', '\t', '\0', '\\', '\'',
	    '\101', '\x41');
	printf("%d %d %d %d\n", sizeof ("hello"), sizeof (""), sizeof ("a\tb"),
	    sizeof ("ab\0cd"));
	printf("%d %d %d\n", sizeof ((char)1 + (char)1),
	    sizeof ((short)1 * 2), sizeof (1 + 1L));
	printf("%d %d %d\n", -1 < 0u, (unsigned char)255 > (char)-1,
	    -1 < (unsigned short)1);
	printf("%d %d %d\n", 1 << 31, (int)0x80000000 >> 31,
	    0x80000000 >> 31);
	printf("%d %d %d\n", (char)0x1ff, (unsigned short)-1, (short)0x18000);
	printf("%d %d\n", -7 / 2, -7 % 2);
	exit(0);
}
