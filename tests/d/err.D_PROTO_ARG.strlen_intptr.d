/*
 * Asserts D_PROTO_ARG: only char * (and char [n]) read as strings; an
 * int * is not string-compatible.
 */
BEGIN
{
	p = (int *)alloca(8);
	trace(strlen(p));
}
