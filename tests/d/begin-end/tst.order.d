/*
 * ASSERTION: BEGIN fires first, then the exit() it calls ends tracing,
 * END fires last; quiet output is each printf verbatim followed by the
 * consumer's single closing newline.
 */
#pragma D option quiet

END
{
	printf("end\n");
}

BEGIN
{
	printf("begin\n");
	exit(0);
}
