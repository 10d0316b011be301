/*
 * ASSERTION: an associative array holds 500 elements set by successive
 * firings; each reads back its own value.
 */
#pragma D option quiet

int n;

profile:::tick-1000
/n < 500/
{
	a[n] = n * 3 + 1;
	n++;
}

profile:::tick-1000
/n == 500/
{
	printf("%d %d %d %d %d\n", a[0], a[1], a[250], a[499], a[500]);
	exit(0);
}
