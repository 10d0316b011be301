/*
 * Asserts D_DECL_VOIDATTR: the parameter's type is checked before its storage class.
 */
int f(static long void);
