/*
 * Asserts D_PROTO_ARG: func() needs an address.
 */
BEGIN
{
	func(execname);
}
