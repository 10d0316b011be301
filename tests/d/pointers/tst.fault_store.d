/*
 * ASSERTION: a store through a pointer that leaves alloca()'d scratch
 * (one element past an allocation, far beyond it, or into kernel memory)
 * is not done: the clause stops with an invalid-address fault
 * (DTRACEFLT_BADADDR, arg4 = 1) whose address (arg5) is the target, and
 * the next clause still runs.  Scratch lives for one clause: a load in
 * the next clause through a pointer alloca() returned in the previous one
 * faults the same way, and so does a bcopy() whose destination is not
 * (wholly) in scratch (its arg5 is not checked: DTrace reports there
 * what the result register held).  A misaligned store into scratch
 * faults DTRACEFLT_BADALIGN (arg4 = 2).  Each clause sets `expect` to
 * the address its fault should name (0: not checked).
 */
#pragma D option quiet

BEGIN
{
	x = (int *)alloca(sizeof (int));
	*x = 1;
	y = x + 1;
	expect = (uintptr_t)y;
	*y = 2;
	printf("not reached\n");
}

BEGIN
{
	z = (long *)alloca(sizeof (long));
	z = z + 100000;
	expect = (uintptr_t)z;
	*z = 3;
	printf("not reached\n");
}

BEGIN
{
	k = (char *)curthread;
	expect = (uintptr_t)k;
	k[0] = 0;
	printf("not reached\n");
}

BEGIN
{
	s = (char *)alloca(1);
	*s = 'a';
}

BEGIN
{
	expect = (uintptr_t)s;
	printf("not reached %c\n", *s);
}

BEGIN
{
	expect = 0;
	bcopy("abc", (void *)curthread, 3);
}

BEGIN
{
	b = (char *)alloca(2);
	expect = 0;
	bcopy("abcdef", b, 6);
}

BEGIN
{
	m = (char *)alloca(16);
	expect = (uintptr_t)(m + 1);
	*(int *)(m + 1) = 1;
	printf("not reached\n");
}

ERROR
{
	printf("fault %d at target: %d\n", arg4, expect == 0 ||
	    arg5 == expect);
}

BEGIN
{
	exit(0);
}
