/*
 * ASSERTION: a self-> variable set in one clause satisfies a predicate
 * in a later clause of the same thread; an unset one is 0.
 */
#pragma D option quiet

BEGIN /!self->seen/ { printf("unset\n"); self->seen = 1; }
BEGIN /self->seen/ { printf("set\n"); self->seen = 0; }
BEGIN /self->seen/ { printf("must not print\n"); }
BEGIN { exit(0); }
