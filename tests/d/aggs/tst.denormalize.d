/*
 * ASSERTION: denormalize(@) undoes normalize(@, n): printa() shows the
 * normalized values first, the raw ones after denormalize().
 */
#pragma D option quiet

BEGIN
{
	@["a"] = sum(1000);
	@["b"] = sum(30);
	normalize(@, 100);
	printa(@);
	denormalize(@);
	printa(@);
	exit(0);
}
