/*
 * Asserts D_DECL_LONGINT: long with string is refused.
 */
long string s;
