/*
 * ASSERTION: once a BEGIN clause calls exit(), the remaining BEGIN
 * clauses are not run, but END still fires.
 */
#pragma D option quiet

BEGIN { printf("first\n"); }
BEGIN { printf("second\n"); exit(0); }
BEGIN { printf("third: must not print\n"); }
BEGIN { printf("fourth: must not print\n"); }
END { printf("end\n"); }
