/*
 * ASSERTION: & may not be applied to a translated struct: the data object
 * does not exist until it is copied or a member is referenced (the Guide).
 */
struct out { int v; };
translator struct out < int x > { v = x; };

BEGIN
{
	trace(&xlate<struct out>(1));
	exit(0);
}
