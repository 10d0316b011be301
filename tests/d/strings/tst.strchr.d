/*
 * ASSERTION: strchr() and strrchr() return the rest of the string from
 * the first or last occurrence of a character; strstr() from the first
 * occurrence of a substring.
 */
#pragma D option quiet

BEGIN
{
	s = "/usr/lib/dtrace";
	printf("[%s] [%s]\n", strchr(s, '/'), strrchr(s, '/'));
	printf("[%s] [%s]\n", strchr(s, 'r'), strrchr(s, 'r'));
	printf("[%s] [%s]\n", strstr(s, "lib"), strstr(s, "dtrace"));
	printf("[%s]\n", strstr(s, "/"));
	exit(0);
}
