/*
 * ASSERTION: without defaultargs, a macro argument not given is an error.
 * @@options: one
 */
BEGIN { trace($$1); trace($2); exit(0); }
