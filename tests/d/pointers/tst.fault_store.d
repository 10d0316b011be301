/*
 * ASSERTION: a store through a pointer that leaves alloca()'d scratch
 * (one element past an allocation, far beyond it, or into kernel memory)
 * is not done: the clause stops with an invalid-address fault
 * (DTRACEFLT_BADADDR, arg4 = 1) whose address (arg5) is the target, and
 * the next clause still runs.  Scratch lives for one clause: a load in
 * the next clause through a pointer alloca() returned in the previous one
 * faults the same way, and so does a bcopy() whose destination is not
 * (wholly) in scratch.  A misaligned store into scratch faults
 * DTRACEFLT_BADALIGN (arg4 = 2).
 */
#pragma D option quiet

BEGIN
{
	x = (int *)alloca(sizeof (int));
	*x = 1;
	y = x + 1;
	*y = 2;
	printf("not reached\n");
}

BEGIN
{
	z = (long *)alloca(sizeof (long));
	z = z + 100000;
	*z = 3;
	printf("not reached\n");
}

BEGIN
{
	k = (char *)curthread;
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
	printf("not reached %c\n", *s);
}

BEGIN
{
	d = curthread;
	bcopy("abc", (void *)d, 3);
}

BEGIN
{
	b = (char *)alloca(2);
	bcopy("abcdef", b, 6);
}

BEGIN
{
	m = (char *)alloca(16);
	*(int *)(m + 1) = 1;
	printf("not reached\n");
}

ERROR
{
	printf("fault %d at target: %d\n", arg4,
	    arg5 == (uintptr_t)y || arg5 == (uintptr_t)z ||
	    arg5 == (uintptr_t)k || arg5 == (uintptr_t)s || arg5 == d ||
	    arg5 == (uintptr_t)b || arg5 == (uintptr_t)m + 1);
}

BEGIN
{
	exit(0);
}
