/*
 * ASSERTION: a clause runs only when its predicate is non-zero;
 * constant, arithmetic and negative predicates.
 */
#pragma D option quiet

BEGIN /1/ { printf("one\n"); }
BEGIN /0/ { printf("zero: must not print\n"); }
BEGIN /-1/ { printf("minus one\n"); }
BEGIN /2 - 2/ { printf("two minus two: must not print\n"); }
BEGIN /!0/ { printf("not zero\n"); }
BEGIN { exit(0); }
