/* Task 1: print one line and exit. */
#pragma D option quiet

BEGIN
{
	printf("hello, Sonde\n");
	exit(0);
}
