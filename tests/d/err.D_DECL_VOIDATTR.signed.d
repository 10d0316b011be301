/*
 * Asserts D_DECL_VOIDATTR: signed with void is refused.
 */
signed void *p;
