/*
 * null.d: NULL, the null pointer constant of D.
 *
 * Part of Sonde's D library (dlang/dt_lib.c).  NULL is a pointer to void
 * whose value is zero: it compares equal to any pointer that is zero, may
 * be assigned to any pointer variable, and passes where a subroutine takes
 * a pointer or a string (strtok(NULL, ",") goes on with the last string).
 */

inline void *NULL = 0;
