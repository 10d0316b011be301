/*
 * Asserts D_DECL_CLASS: two storage classes on a parameter: D_DECL_CLASS comes before D_DECL_PARMCLASS.
 */
int f(static static int);
