/*
 * ASSERTION: the fault message counts actions from 1 within the clause:
 * a fault in the third statement is "action #3".
 */
#pragma D option quiet

BEGIN
{
	trace("a");
	trace("b");
	trace(*(int *)0);
	trace("c");
}

BEGIN
{
	exit(0);
}
