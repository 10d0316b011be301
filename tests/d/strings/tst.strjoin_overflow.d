/*
 * ASSERTION: strjoin() whose result (with its NUL) does not fit in
 * strsize is a fault (DTrace: "out of scratch space"), not a silent
 * truncation; a result of exactly strsize - 1 characters is fine.
 * (stderr names a DIF offset and is not compared.)
 */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	printf("[%s]\n", strjoin("123", "4567"));
}

BEGIN
{
	printf("[%s]\n", strjoin("1234", "56789"));
}

BEGIN
{
	printf("continued\n");
	exit(0);
}
