/*
 * Asserts D_DECL_LONGINT: long with a struct is refused.
 */
long struct sl { int a; } s;
