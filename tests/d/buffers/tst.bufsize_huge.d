/*
 * ASSERTION: a principal buffer larger than the machine can give is
 * lowered until it fits (bufresize=auto, the default) and tracing runs;
 * the notice "buffer size lowered to ..." goes to standard error (its
 * size depends on memory and CPUs, so it is not checked here).
 */
#pragma D option quiet
#pragma D option bufsize=64g
#pragma D option aggsize=64g

BEGIN
{
	@ = count();
	printf("traced\n");
	exit(0);
}
