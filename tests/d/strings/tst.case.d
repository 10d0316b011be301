/*
 * ASSERTION: toupper() and tolower() change letters only.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s]\n", toupper("Hello, World 42!"),
	    tolower("Hello, World 42!"));
	printf("[%s] [%s]\n", toupper(""), tolower("ABC_xyz"));
	exit(0);
}
