/*
 * ASSERTION: a fault that happens while an action's string is copied
 * into the buffer (after its DIF ran without fault) is reported without
 * a DIF offset (DTrace passes offset -1 and leaves " at DIF offset N"
 * out); the clause is discarded and tracing continues.
 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", stringof((char *)16));
}

BEGIN
{
	printf("continued\n");
	exit(0);
}
