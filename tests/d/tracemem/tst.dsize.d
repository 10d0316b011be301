/*
 * ASSERTION: tracemem(addr, size, dsize) records size bytes and shows
 * dsize of them, dsize evaluated when the probe fires; a dsize below 0 or
 * above size is ignored (all size bytes are shown), 0 shows the header
 * alone.  Quiet: the dumps alone, no probe prefix.
 */
#pragma D option quiet

BEGIN
{
	this->p = (char *)alloca(24);
	bcopy("0123456789abcdefghijklmn", this->p, 24);
	this->n = 5;
	tracemem(this->p, 24, this->n);
	tracemem(this->p, 24, this->n + 12);
	tracemem(this->p, 24, -1);
	tracemem(this->p, 24, 25);
	tracemem(this->p, 24, 0);
	printf("\nend\n");
	exit(0);
}
