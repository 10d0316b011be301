/*
 * ASSERTION: stddev() is sqrt(avg(x^2) - avg(x)^2) in integer arithmetic:
 * 2,4,4,4,5,5,7,9 gives 2; a single value gives 0; 1 and 2 give 1
 * (avg 1, avg of squares 2); it prints in " %16llu".
 */
#pragma D option quiet

BEGIN
{
	@sd["classic"] = stddev(2);
	@sd["classic"] = stddev(4);
	@sd["classic"] = stddev(4);
	@sd["classic"] = stddev(4);
	@sd["classic"] = stddev(5);
	@sd["classic"] = stddev(5);
	@sd["classic"] = stddev(7);
	@sd["classic"] = stddev(9);
	@sd["single"] = stddev(1234);
	@sd["onetwo"] = stddev(1);
	@sd["onetwo"] = stddev(2);
	exit(0);
}
