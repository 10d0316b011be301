/*
 * ASSERTION: setopt() of an option that does not exist, of one that cannot
 * change while tracing runs, or with a bad value is reported as DTrace's
 * consumer reports it ("couldn't set option ... to ...: why", once per
 * firing, tracing goes on); setopt("name") means the value "1"; an option
 * that may change (aggsortrev) takes effect: the aggregation prints in
 * reverse order at the end.
 */
#pragma D option quiet

BEGIN
{
	setopt("nosuchoption");
}

BEGIN
{
	setopt("bufsize", "8m");
}

BEGIN
{
	setopt("aggsortpos", "x");
}

BEGIN
{
	setopt("aggsortrev");
	@a[1] = count();
	@a[2] = count();
	@a[2] = count();
}

BEGIN
{
	printf("still tracing\n");
	exit(0);
}
