/*
 * ASSERTION: one chill() longer than the 500 ms allowed per interval does not
 * spin at all: it fails with an illegal operation in its action.
 */
/* @@options: -w -q */
BEGIN
{
	chill(500000001);
	printf("not reached\n");
}

ERROR
{
	printf("ERROR: action %d fault %d\n", arg2, arg4);
	exit(0);
}
