/*
 * ASSERTION: %% prints one percent sign; a % in a string argument is
 * printed as is and not interpreted.
 */
#pragma D option quiet

BEGIN
{
	printf("100%%\n");
	printf("%d%% of %s\n", 50, "%d%s%%");
	printf("%%d %%s %%%%\n");
	s = "50% off";
	printf("%s|%%|%s\n", s, s);
	exit(0);
}
