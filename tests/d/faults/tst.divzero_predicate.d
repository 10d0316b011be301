/*
 * ASSERTION: a divide-by-zero in a predicate is reported "in
 * predicate"; the clause does not run and ERROR's arg2 is 0.
 */
#pragma D option quiet

int z;

BEGIN
/10 / z == 1/
{
	printf("must not print\n");
}

ERROR
{
	printf("arg2=%d arg4=%d\n", arg2, arg4);
}

BEGIN
{
	exit(0);
}
