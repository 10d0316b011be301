/*
 * ASSERTION: trunc() among equal values keeps by key order: trunc(@, 1)
 * keeps the largest key, trunc(@, -1) the smallest.
 */
#pragma D option quiet

BEGIN
{
	@top["a"] = sum(5);
	@top["b"] = sum(5);
	@top["c"] = sum(1);
	@bot["a"] = sum(5);
	@bot["b"] = sum(5);
	@bot["c"] = sum(9);
	trunc(@top, 1);
	trunc(@bot, -1);
	exit(0);
}
