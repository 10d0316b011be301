/*
 * -x oformat=json: every kind of record as one JSON object a line
 * (docs/output.md): trace() of each width, sign and of strings with
 * characters JSON escapes, printf, tracemem, a fault (an error record),
 * and the aggregations of every function with integer, string and tuple
 * keys, histograms as bucket lists, printed by printa() (then not again at
 * the end) and at the end.  Byte-stable: no timestamps, no addresses.
 */
/* @@options: -x oformat=json */

BEGIN
{
	trace((char)-1);
	trace((unsigned short)65535);
	trace(-5);
	trace(18446744073709551615ULL);
	trace("quote\" back\\ tab\t nl\n bell\a");
	printf("%s=%d\n", "x", 3);
	this->p = (char *)alloca(3);
	this->p[0] = 'J';
	this->p[1] = 0;
	this->p[2] = 255;
	tracemem(this->p, 3);
	@c["a"] = count();
	@c["b"] = count();
	@c["b"] = count();
	@s[1, "one"] = sum(10);
	@m = min(-7);
	@x = max(9);
	@v = avg(5);
	@v = avg(7);
	@d = stddev(2);
	@d = stddev(4);
	@q = quantize(0);
	@q = quantize(3);
	@q = quantize(-2);
	@l = lquantize(-1, 0, 10, 5);
	@l = lquantize(7, 0, 10, 5);
	@l = lquantize(11, 0, 10, 5);
	@g = llquantize(50, 10, 0, 2, 10);
	@g = llquantize(5000, 10, 0, 2, 10);
}

BEGIN
{
	trace(*(int *)8);
}

BEGIN
{
	printa(@c);
	exit(0);
}
