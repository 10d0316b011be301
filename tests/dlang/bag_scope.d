/* bag->: a pack of each kind, a read of all values, first(), last() */
BEGIN
{
	bag->client = execname;
	bag->req = 7;
	bag->bytes += arg2;
}

END
{
	@[bag->client, first(bag->req)] = sum(last(bag->bytes));
}
