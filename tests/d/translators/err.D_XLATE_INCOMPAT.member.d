/*
 * ASSERTION: translating a whole struct type-checks each member's
 * definition against the member: a string does not become an int.
 */
struct out { int v; };
translator struct out < int x > { v = "str"; };

BEGIN
{
	o = xlate<struct out>(1);
	exit(0);
}
