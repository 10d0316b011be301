/*
 * Asserts D_KEY_TYPE: a thread-local array key must have a value: a void
 * expression is none (a struct or union key is fine: tests/d/types).
 */
BEGIN
{
	self->a[(void)1] = 1;
}
