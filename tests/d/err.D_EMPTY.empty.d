/*
 * Asserts D_EMPTY: a program with nothing in it is rejected.
 */
/* nothing */
