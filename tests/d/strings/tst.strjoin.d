/*
 * ASSERTION: strjoin() concatenates; nested joins and empty strings.
 */
#pragma D option quiet

BEGIN
{
	a = "foo";
	printf("[%s]\n", strjoin(a, "bar"));
	printf("[%s]\n", strjoin(strjoin(a, "-"), strjoin("", a)));
	printf("[%s]\n", strjoin("", ""));
	printf("%d\n", strlen(strjoin(a, a)));
	exit(0);
}
