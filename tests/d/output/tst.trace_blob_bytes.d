/*
 * ASSERTION: trace() of a struct or array is judged by its bytes, as the
 * Guide's "trace() Default Format" says, not by its type: a struct whose
 * bytes are printable characters followed by NULs prints as a string; a
 * char array holding a non-printable byte, or a NUL before anything, is
 * dumped as bytes; a char array printable to its end prints as text.
 */
#pragma D option quiet

struct word {
	char w_c[4];
	int w_n;
};

struct word w;
char bin[4];
char empty[4];
char full[4];

BEGIN
{
	w.w_c[0] = 'h'; w.w_c[1] = 'i';
	trace(w);
	trace("|\n");
	bin[0] = 'a'; bin[1] = 1;
	trace(bin);
	trace("|\n");
	trace(empty);
	trace("|\n");
	full[0] = 'a'; full[1] = 'b'; full[2] = 'c'; full[3] = 'd';
	trace(full);
	trace("|\n");
	exit(0);
}
