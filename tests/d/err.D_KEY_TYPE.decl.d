/*
 * Asserts D_KEY_TYPE: an associative array's declared key must be of a
 * type a value can have: not an incomplete struct.
 */
struct s;
int a[struct s];
BEGIN
{
	trace(1);
}
