/*
 * Asserts D_DESTRUCT: raise() is destructive: without -w (or the
 * destructive option) the compiler refuses it, even with other options set.
 */
#pragma D option quiet
BEGIN
{
	raise(9);
}
