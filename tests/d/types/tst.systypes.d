/*
 * ASSERTION: the names of illumos's <sys/types.h>, which DTrace finds in
 * the kernel's types, are D types: uint, ushort, ulong, unchar, u_int,
 * u_short, u_long, u_char, mode_t, nlink_t, ino_t, daddr_t, diskaddr_t,
 * clock_t and key_t have their sizes and signedness, as uint_t, uid_t and
 * gid_t do.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", sizeof (uint), sizeof (ushort), sizeof (ulong), sizeof (unchar));
	printf("%d %d %d %d\n", sizeof (u_int), sizeof (u_short), sizeof (u_long), sizeof (u_char));
	printf("%d %d %d %d\n", sizeof (mode_t), sizeof (nlink_t), sizeof (ino_t), sizeof (key_t));
	printf("%d %d %d\n", sizeof (daddr_t), sizeof (diskaddr_t), sizeof (clock_t));
	printf("%d %d %d\n", sizeof (uint_t), sizeof (uid_t), sizeof (gid_t));
	printf("%d %d %d\n", (uint)-1 > 0, (u_char)-1, (key_t)-1 < 0);
	printf("%d %d\n", (daddr_t)-1 < 0, (clock_t)-1 < 0);
	exit(0);
}
