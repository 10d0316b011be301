/*
 * ASSERTION: this-> clause-local variables carry values between
 * statements of one clause, across the clauses of one probe firing,
 * and have their declared types.
 */
#pragma D option quiet

this int n;
this string s;

BEGIN
{
	this->n = 3;
	this->s = "local";
	this->n = this->n * 7;
}

BEGIN
{
	printf("%d %s\n", this->n, this->s);
	exit(0);
}
