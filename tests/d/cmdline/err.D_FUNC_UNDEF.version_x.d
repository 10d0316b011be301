/*
 * ASSERTION: bound to D 1.7 on the command line, toupper (D 1.8) is not
 * defined, though llquantize (D 1.7) is.
 * @@options: -x version=1.7
 */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 10);
	trace(toupper("a"));
	exit(0);
}
