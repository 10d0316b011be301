/*
 * ASSERTION: a principal buffer of 0 bytes (-b 0) cannot hold any record,
 * exit()'s included, so a program that records anything is refused at
 * enabling ("Enabling exceeds size of buffer"), status 1, instead of
 * dropping every record and never ending.
 * @@options: -b 0
 */
BEGIN
{
	exit(0);
}
