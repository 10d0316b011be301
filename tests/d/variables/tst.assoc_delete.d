/*
 * ASSERTION: assigning 0 to an associative array element deletes it:
 * it reads 0 afterwards and can be set again.
 */
#pragma D option quiet

BEGIN
{
	a["k"] = 5;
	a["k"] = 0;
	printf("%d\n", a["k"]);
	a["k"] = 6;
	printf("%d\n", a["k"]);
	self->t[1, 2] = 3;
	self->t[1, 2] = 0;
	printf("%d\n", self->t[1, 2]);
	exit(0);
}
