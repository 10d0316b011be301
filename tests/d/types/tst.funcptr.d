/*
 * ASSERTION: C's function-pointer and varargs declarations: a pointer to a
 * function (int (*fp)(int, ...)), an array of them, a pointer to an array,
 * a typedef of a function type and of a function pointer, function-pointer
 * struct members, a varargs prototype, and the abstract forms in sizeof
 * and casts; each pointer is 8 bytes and lays out as one.
 */
/* @@options: -q */

typedef int (*fp_t)(int, char *);
typedef void fn_t(int);
int (*fp)(int, ...);
void (*tab[3])(void);
int (*ap)[4];
fn_t *fnp;
struct ops {
	int (*op_open)(void *, int);
	void (*op_close)(void *);
	char name[8];
};
int varfn(const char *, ...);
BEGIN
{
	printf("%d %d %d %d %d %d\n", sizeof (fp_t), sizeof (fp), sizeof (tab), sizeof (ap), sizeof (fnp), sizeof (struct ops));
	printf("%d %d\n", offsetof(struct ops, op_close), offsetof(struct ops, name));
	printf("%d %d\n", sizeof (int (*)(int)), sizeof (void (*[5])(void)));
	x = (int (*)(int))0;
	trace(fp == 0);
	exit(0);
}
