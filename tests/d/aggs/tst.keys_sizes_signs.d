/*
 * ASSERTION: integer keys print by their size as DTrace's unsigned record
 * bytes: 1-byte keys " %3d" (so (char)-1 prints 255), 2-byte " %5d"
 * ((short)-1 prints 65535), 4-byte " %8d" ((int)-1 prints -1), 8-byte
 * " %16lld"; within one aggregation entries of equal count sort by the
 * key compared unsigned.
 */
#pragma D option quiet

BEGIN
{
	@c[(char)-1] = count();
	@c[(char)1] = count();
	@c[(char)-128] = count();
	@s[(short)-1] = count();
	@s[(short)2] = count();
	@s[(short)-32768] = count();
	@i[(int)-1] = count();
	@i[(int)2] = count();
	@i[(int)0x80000000] = count();
	@l[(long long)-1] = count();
	@l[(long long)2] = count();
	@l[(long long)0x8000000000000000] = count();
	exit(0);
}
