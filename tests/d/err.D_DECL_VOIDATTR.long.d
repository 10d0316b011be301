/*
 * Asserts D_DECL_VOIDATTR: long with void is refused (before D_DECL_LONGINT).
 */
long void *p;
