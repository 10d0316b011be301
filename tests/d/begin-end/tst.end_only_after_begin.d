/*
 * ASSERTION: END fires once, after every BEGIN clause and after the
 * profile probe that called exit(); variables set earlier are visible.
 */
#pragma D option quiet

int done;

BEGIN
{
	a = 10;
}

BEGIN
{
	b = 20;
}

profile:::tick-1000
/!done/
{
	done = 1;
	c = 30;
	exit(0);
}

END
{
	printf("%d %d %d\n", a, b, c);
}
