/*
 * ASSERTION: basename() and dirname() follow POSIX: trailing slashes
 * are ignored, a name without a slash has dirname ".", the root is "/".
 */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s]\n", basename("/usr/lib/libc.so"), dirname("/usr/lib/libc.so"));
	printf("[%s] [%s]\n", basename("/usr/lib/"), dirname("/usr/lib/"));
	printf("[%s] [%s]\n", basename("file"), dirname("file"));
	printf("[%s] [%s]\n", basename("/"), dirname("/"));
	printf("[%s] [%s]\n", basename("/usr"), dirname("/usr"));
	printf("[%s] [%s]\n", basename("a/b"), dirname("a/b"));
	exit(0);
}
