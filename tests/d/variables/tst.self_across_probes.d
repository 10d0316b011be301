/*
 * ASSERTION: BEGIN and END run in the consumer's thread: a self->
 * variable set in BEGIN is seen in END.
 */
#pragma D option quiet

BEGIN
{
	self->v = 99;
}

END
{
	printf("end sees %d\n", self->v);
}

BEGIN
{
	exit(0);
}
