/*
 * ASSERTION: the notice on stderr counts (clause, probe) pairs: three
 * BEGIN clauses and an END clause match 4 probes.
 */
BEGIN { }
BEGIN { }
END { }
BEGIN { exit(0); }
