/*
 * ASSERTION: under -x oformat=json a tracemem() record's bytes are the
 * ones shown: dsize of them when it is in 0..size, all of them otherwise.
 */
/* @@options: -x oformat=json */

BEGIN
{
	this->p = (char *)alloca(8);
	bcopy("abcdefgh", this->p, 8);
	tracemem(this->p, 8, 3);
	tracemem(this->p, 8, 9);
	exit(0);
}
