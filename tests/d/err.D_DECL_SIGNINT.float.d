/*
 * Asserts D_DECL_SIGNINT: unsigned with a floating-point type is refused.
 */
unsigned double d;
