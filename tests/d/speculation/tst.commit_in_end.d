/*
 * ASSERTION: a speculation may be committed from another probe: data
 * speculated in BEGIN is committed in END and printed there, before END's
 * own later output.
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
	printf("begin\n");
}

BEGIN
{
	speculate(s);
	printf("speculated in BEGIN\n");
}

BEGIN
{
	exit(0);
}

END
{
	commit(s);
}

END
{
	printf("end\n");
}
