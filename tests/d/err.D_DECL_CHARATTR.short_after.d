/*
 * Asserts D_DECL_CHARATTR: short after char is refused just the same.
 */
char short c;
