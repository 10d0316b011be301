/*
 * ASSERTION: the entry/return idiom: a thread-local flag set at
 * churn_round's entry and cleared at its return selects the calls made
 * inside it: churn_free_batch is seen once per round, always inside one,
 * and the round number saved at entry is still there at return.
 * @@options: -q -c 'churn 3'
 */
fbt::churn_round:entry
{
	self->in = 1;
	self->round = arg1 & 0xff;
}

fbt::churn_free_batch:entry
/self->in/
{
	printf("free batch in round %d\n", self->round);
}

fbt::churn_free_batch:entry
/!self->in/
{
	printf("must not print\n");
}

fbt::churn_round:return
/self->in/
{
	self->in = 0;
	printf("round %d done\n", self->round);
}
