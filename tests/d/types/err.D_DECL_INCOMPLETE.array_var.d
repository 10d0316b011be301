/*
 * ASSERTION: a variable that is an array of an incomplete struct is an
 * error, as the struct itself would be.
 */
struct s;
struct s v[3];

BEGIN
{
	exit(0);
}
