/*
 * ASSERTION: an operand the program does not use is an error ("extraneous
 * argument 'surplus' ($1 is not referenced)"), not a silent macro.
 * @@options: surplus
 */
BEGIN { exit(0); }
