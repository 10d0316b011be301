/*
 * ASSERTION: aggregating functions take their argument as a 64-bit value
 * after the usual conversions: signed small types are sign-extended,
 * unsigned ones zero-extended ((char)-1 + (unsigned char)255 +
 * (short)-2 + (unsigned short)65535 = 65787).
 */
#pragma D option quiet

BEGIN
{
	@s = sum((char)-1);
	@s = sum((unsigned char)255);
	@s = sum((short)-2);
	@s = sum((unsigned short)65535);
	@mx = max((int)-1);
	@mx = max((int)-7);
	@mn = min((unsigned int)0xffffffff);
	exit(0);
}
