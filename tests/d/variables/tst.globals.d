/*
 * ASSERTION: global variables keep their values across clauses and
 * probes; an integer global starts at 0, a string global at "".
 */
#pragma D option quiet

int g;
string s;

BEGIN
{
	printf("[%d] [%s]\n", g, s);
	g = 41;
	s = "set";
}

BEGIN
{
	g++;
}

END
{
	printf("[%d] [%s]\n", g, s);
}

BEGIN
{
	exit(0);
}
