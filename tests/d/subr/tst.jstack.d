/*
 * ASSERTION: jstack() is ustack() without a Java helper, and every Sonde
 * thread is a kernel thread with no user stack: each records no frames and
 * prints as an empty stack (its leading newline only), with or without
 * arguments.
 */
/* @@options: -q */

BEGIN
{
	printf("a");
	jstack();
	printf("b");
	jstack(10, 200);
	printf("c");
	ustack();
	printf("d\n");
	exit(0);
}
