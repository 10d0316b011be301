/*
 * ASSERTION: with -c 'churn 3', churn_round runs three times, with
 * its round number 0, 1, 2 as the second argument, in order.
 * @@options: -q -c 'churn 3'
 */
fbt::churn_round:entry
{
	printf("round %d\n", (uint8_t)arg1);
}
