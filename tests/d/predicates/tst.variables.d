/*
 * ASSERTION: predicates read global variables set by earlier clauses of
 * the same firing; an unset global reads as 0.
 */
#pragma D option quiet

int x, never;

BEGIN /never == 0/ { printf("unset is zero\n"); }
BEGIN { x = 5; }
BEGIN /x == 5/ { printf("x is 5\n"); }
BEGIN /x > 10/ { printf("must not print\n"); }
BEGIN /x >= 5 && x <= 5/ { printf("in range\n"); }
BEGIN /x == 4 || x == 5/ { printf("either\n"); }
BEGIN /never/ { printf("must not print\n"); }
BEGIN { exit(0); }
