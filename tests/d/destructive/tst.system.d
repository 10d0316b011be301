/*
 * ASSERTION: system() runs its formatted command line in the consumer (here
 * the shell's echo), not in probe context, in order with the other output.
 */
/* @@options: -w -q */
BEGIN
{
	printf("before\n");
	system("echo system %d %s", 42, "ran");
	printf("after\n");
	exit(0);
}
