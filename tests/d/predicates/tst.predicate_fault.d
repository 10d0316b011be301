/*
 * ASSERTION: a fault in a predicate is reported as "in predicate",
 * skips that clause only, and the ERROR probe's arg2 is 0.
 */
#pragma D option quiet

BEGIN / *(int *)8 == 1/ { printf("must not print\n"); }
ERROR { printf("ERROR arg2=%d arg4=%d arg5=%d\n", arg2, arg4, arg5); }
BEGIN { printf("next clause\n"); exit(0); }
