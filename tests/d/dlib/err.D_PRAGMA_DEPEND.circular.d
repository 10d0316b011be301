/*
 * ASSERTION: library files that depend on each other (one.d on two.d,
 * two.d on one.d) are an error, not a loop.
 * @@options: --file tests/d/dlib/cycle/one.d --file tests/d/dlib/cycle/two.d -x libdir=tests/d/dlib/cycle
 */
BEGIN
{
	exit(0);
}
