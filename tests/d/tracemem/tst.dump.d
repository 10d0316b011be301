/*
 * ASSERTION: tracemem() prints DTrace's dump (a column header, then rows of
 * offset, sixteen hex bytes and their characters), also when the bytes
 * would read as text; a 20-byte record ends its second row early, a
 * 16-byte one has a single row, and the rows follow the probe's prefix.
 */
BEGIN
{
	this->p = (char *)alloca(20);
	bcopy("hello, tracemem!", this->p, 16);
	this->p[16] = 0;
	this->p[17] = 1;
	this->p[18] = 0x7f;
	this->p[19] = 'z';
	tracemem(this->p, 20);
	tracemem(this->p, 16);
}

BEGIN
{
	exit(0);
}
