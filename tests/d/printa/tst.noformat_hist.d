/*
 * ASSERTION: printa() of a keyed histogram: the key line, then the
 * histogram (whose header's leading newline ends the key line), then a
 * blank line.
 */
#pragma D option quiet

BEGIN
{
	@q["k"] = quantize(2);
	@q["k"] = quantize(3);
	printa(@q);
	printf("done\n");
	exit(0);
}
