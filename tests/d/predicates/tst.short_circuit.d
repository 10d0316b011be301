/*
 * ASSERTION: && and || in a predicate short-circuit: the right side is
 * not evaluated (its division by zero does not fault) when the left
 * decides.
 */
#pragma D option quiet

int zero;

BEGIN /zero != 0 && 10 / zero == 1/ { printf("must not print\n"); }
BEGIN /zero == 0 || 10 / zero == 1/ { printf("or short-circuits\n"); }
BEGIN { exit(0); }
