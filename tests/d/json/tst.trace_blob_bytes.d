/*
 * ASSERTION: with oformat=json, trace() of a struct or array is judged by
 * its bytes as the text output judges it: a struct holding text then
 * NULs is a string, a char array holding a non-printable byte is an
 * array of byte values.
 */
#pragma D option quiet
#pragma D option oformat=json

struct word {
	char w_c[4];
	int w_n;
};

struct word w;
char bin[4];

BEGIN
{
	w.w_c[0] = 'h'; w.w_c[1] = 'i';
	trace(w);
	bin[0] = 'a'; bin[1] = 1;
	trace(bin);
	exit(0);
}
