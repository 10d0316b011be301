/* Pins the DIF for: sizeof and offsetof are constants. */
struct s { char c; long l; };
BEGIN
{
	trace(sizeof (struct s) + offsetof(struct s, l));
}
