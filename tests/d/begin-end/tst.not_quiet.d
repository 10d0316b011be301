/*
 * ASSERTION: without quiet, a header precedes the first record and each
 * firing that records starts with CPU, probe id and FUNCTION:NAME;
 * BEGIN is probe 1 and END probe 2.
 */
BEGIN
{
	trace("begin");
}

BEGIN
{
	exit(0);
}

END
{
	trace("end");
}
