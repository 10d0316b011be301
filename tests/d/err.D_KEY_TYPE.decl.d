/*
 * Asserts D_KEY_TYPE: an associative array key must be a scalar or string.
 */
struct s { int x; };
int a[struct s];
BEGIN
{
	trace(1);
}
