/*
 * ASSERTION: -x version=1.0 and then -x version=1.6: the second asks for
 * more than the binding already made, and is refused.
 * @@options: -x version=1.0 -x version=1.6
 */
BEGIN
{
	exit(0);
}
