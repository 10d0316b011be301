/*
 * Asserts D_DECL_PARMCLASS: an associative array's key may not be extern.
 */
int x[extern int];
