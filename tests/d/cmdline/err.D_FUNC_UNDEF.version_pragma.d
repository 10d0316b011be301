/*
 * ASSERTION: bound to D 1.4 by "#pragma D option version", a program may
 * not call inet_ntop (D 1.5): the function is not defined there.
 */
#pragma D option version=1.4

BEGIN
{
	trace(inet_ntop(2, 0));
	exit(0);
}
