/*
 * ASSERTION: several BEGIN clauses fire in the order they appear in the
 * program, and so do several END clauses.
 */
#pragma D option quiet

BEGIN { printf("begin 1\n"); }
END { printf("end 1\n"); }
BEGIN { printf("begin 2\n"); }
END { printf("end 2\n"); }
BEGIN { printf("begin 3\n"); exit(0); }
END { printf("end 3\n"); }
