/* Pins the DIF for: xlate<T>(e).m expands the translator's member expression. */
struct info { int id; int half; };
translator struct info < int x > { id = x; half = x / 2; };
BEGIN
{
	trace(xlate<struct info>(pid).half);
}
