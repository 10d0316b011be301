/*
 * ASSERTION: nested parenthesized declarators, read inside out as C does:
 * a pointer to a function returning a function pointer, a pointer to an
 * array of function pointers, an array of pointers to functions returning
 * pointers to arrays, a typedef of one, and an abstract one in sizeof.
 */
/* @@options: -q */

int (*(*fpp)(int))(char);
void (*(*tabp)[3])(void);
char *(*(*deep[2])(long))[4];
typedef int (*(*maker_t)(void))(int);
BEGIN
{
	printf("%d %d %d %d\n", sizeof (fpp), sizeof (*tabp), sizeof (deep), sizeof (maker_t));
	printf("%d\n", sizeof (int (*(*)(int))(char)));
	fpp = 0;
	exit(0);
}
