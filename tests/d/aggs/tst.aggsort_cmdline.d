/*
 * ASSERTION: the sort options work from the command line (-x) as well as
 * from pragmas: -x aggsortkey -x aggsortrev sorts by key descending.
 */
/* @@options: -x aggsortkey -x aggsortrev */
#pragma D option quiet

BEGIN
{
	@[1] = count();
	@[3] = count();
	@[3] = count();
	@[2] = count();
	exit(0);
}
