/*
 * Asserts D_DECL_SIGNINT: a sign with string is refused (before D_DECL_LONGINT).
 */
unsigned long string s;
