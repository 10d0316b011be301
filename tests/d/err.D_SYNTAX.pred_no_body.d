/*
 * Asserts D_SYNTAX: a predicate must be followed by a clause body.
 */
BEGIN
/1/
