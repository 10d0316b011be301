/*
 * ASSERTION: an array's elements must be complete (C's rule): a member
 * that is an array of a struct only declared forward is an error (an
 * array of pointers to it is fine).
 */
struct s;

struct t {
	struct s *ok[2];
	struct s arr[2];
};

BEGIN
{
	exit(0);
}
