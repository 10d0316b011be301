/*
 * Asserts D_PROTO_LEN: printa() needs an argument; DTrace's prototype check
 * comes before printa's own (D_PRINTA_PROTO).
 */
BEGIN
{
	printa();
}
