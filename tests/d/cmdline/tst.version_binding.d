/*
 * ASSERTION: a program bound to D 1.0 does not see the functions DTrace
 * added later (strtok and substr in 1.1, inet_ntoa in 1.5, toupper in
 * 1.8): their names are the program's own, here plain variables, which is
 * what a version binding is for.  Functions of 1.0 (strlen) are still there.
 */
#pragma D option version=1.0
#pragma D option quiet

BEGIN
{
	strtok = 1;
	substr = "two";
	inet_ntoa = 3;
	self->toupper = strlen("four");
	printf("%d %s %d %d\n", strtok, substr, inet_ntoa, self->toupper);
	exit(0);
}
