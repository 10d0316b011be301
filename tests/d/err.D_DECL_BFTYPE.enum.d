/*
 * Asserts D_DECL_BFTYPE: an enum is not an integer type for a bit-field, as
 * in DTrace; the message names the member.
 */
enum colour { RED, GREEN };
struct s { enum colour c : 2; };
BEGIN
{
	trace(1);
}
