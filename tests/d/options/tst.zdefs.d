/*
 * ASSERTION: -Z lets a description that matches no probe through; the
 * rest of the program runs.
 * @@options: -Z
 */
#pragma D option quiet

profile:::no-such-probe
{
	printf("never\n");
}

BEGIN
{
	printf("ran\n");
	exit(0);
}
