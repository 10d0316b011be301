/*
 * ASSERTION: #pragma D option bufsize with a size suffix is accepted and
 * a small buffer still carries small records.
 */
#pragma D option quiet
#pragma D option bufsize=4k

BEGIN
{
	printf("fits\n");
	exit(0);
}
