/*
 * ASSERTION: a switch buffer too small for what one firing records drops
 * the records that do not fit, counted as principal buffer drops
 * ("N drops on CPU C"); tracing goes on and the exit status is 0.
 * @@options: -b 64
 */
#pragma D option quiet

BEGIN { trace(1); trace(2); }
BEGIN { trace(3); trace(4); }
BEGIN { trace(5); trace(6); }
BEGIN { trace(7); trace(8); }
BEGIN { exit(0); }
