/*
 * Asserts D_PROTO_ARG: usym() takes an address (uintptr_t, DTrace's
 * prototype), so a string is refused with the prototype printed.
 */
BEGIN
{
	usym("main");
}
