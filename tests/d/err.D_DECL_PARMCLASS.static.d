/*
 * Asserts D_DECL_PARMCLASS: a prototype's parameter may not be static.
 */
int f(static int);
