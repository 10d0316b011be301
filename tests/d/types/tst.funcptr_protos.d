/*
 * ASSERTION: prototypes and declarations with function-pointer parameters
 * and members (named and unnamed parameters, a varargs prototype, a
 * pointer to a function returning a pointer, an array of a function
 * pointer typedef) are accepted and lay out as pointers.
 */
/* @@options: -q */

void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
typedef void (*handler_t)(int sig);
struct ops { int (*cmp)(const void *a, const void *b); char *(*name)(int); handler_t h; };
extern int printf_like(const char *fmt, ...);
char *(*sfp)(int);
handler_t handlers[4];
BEGIN
{
	printf("%d %d %d\n", sizeof (struct ops), sizeof (handlers), sizeof (sfp));
	exit(0);
}
