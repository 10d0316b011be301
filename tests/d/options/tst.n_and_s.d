/*
 * ASSERTION: -n and -s combine; each program is compiled and enabled in
 * command-line order, so the -n clause (given first) gets the first
 * enabled probe id, prints its notice first and its END clause fires
 * before the script's.
 * @@options: -n 'END { printf("from -n"); }'
 */
BEGIN
{
	exit(0);
}

END
{
	printf("from -s");
}
