/*
 * ASSERTION: a fault in END is reported like any other and the exit
 * status is still the one exit() gave.
 * @@exit: 4
 */
#pragma D option quiet

BEGIN
{
	exit(4);
}

END
{
	x = *(int *)8;
}

END
{
	printf("end continued\n");
}
